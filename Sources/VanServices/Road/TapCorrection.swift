import Foundation
import VanDomain
import VanPostgres

/// The dispatcher's correction of a driver's tap, after the driver's own undo window (or after
/// her shift ended): the latest tap standing at a stop is undone, as the driver's undo does it
/// (a no-show or drop-off undone puts the ride back to approved), with no time limit, audited as
/// `tap.correct` with who, why, and the stop's state before and after. The tap's `tap_undone`
/// event tells the rider when the correction changes what she was told: a no-show undone, or the
/// van's arrival at her pickup (sql/0037).
public struct TapCorrection: Sendable {
    let pool: PGPool
    let clock: any TimeSource

    /// Corrections over `pool`, timed by `clock`.
    public init(pool: PGPool, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// Why a correction was refused; nothing changed.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// No ride has that reference or id.
        case notFound(String)
        /// No tap stands at that stop.
        case nothingStands(StopKind)
        /// A later tap rests on this one: correct that first.
        case laterFirst(TapAction, StopKind)
        /// Putting the ride back on the van's route breaks a rule the route check holds.
        case cannotRestore(String)
        /// The reason is empty or longer than ``DispatchService/reasonLimit``.
        case badReason

        public var description: String {
            switch self {
            case .notFound(let id): "no ride \(id)"
            case .nothingStands(let stop): "no tap stands at the \(stop == .pickup ? "pickup" : "drop-off"); nothing to correct"
            case .laterFirst(let action, let stop):
                "\"\(action.phrase)\" at the \(stop == .pickup ? "pickup" : "drop-off") rests on this tap: correct that one first"
            case .cannotRestore(let why): "the ride cannot be put back on the van's route: \(why)"
            case .badReason: "give a reason of 1 to \(DispatchService.reasonLimit) characters (it is kept in the audit log)"
            }
        }
    }

    /// What a correction did.
    public struct Outcome: Sendable, Hashable {
        /// The tap undone.
        public let undone: StopTap
        /// The tap now standing at the stop, if any (an "arrived" under an outcome undone).
        public let standing: StopTap?
        /// The ride's status after.
        public let rideStatus: RideStatus
    }

    /// Undoes the latest tap standing at `stop` of ride `id` (a reference, id or unique prefix),
    /// by dispatcher `actor`, for `reason`.
    public func correct(_ id: String, stop: StopKind, reason: String, actor: String) async throws -> Outcome {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty, reason.count <= DispatchService.reasonLimit else { throw Failure.badReason }
        let now = clock.now
        return try await pool.withTransaction { conn in
            let rideID = try RideQueries.resolve(id, conn)  // DispatchError.notFound or ambiguous
            // The ride's lock first, as taps and the driver's undo take it.
            guard let statusText = try conn.query("SELECT status FROM rides WHERE id = \(rideID) FOR UPDATE").first?.decode(String.self, "status"),
                var status = RideStatus(rawValue: statusText)
            else { throw Failure.notFound(id) }
            // The window plays no part here; the store's undo window is irrelevant to a correction.
            let taps = TapStore(conn, undoWindow: 0)
            let standing = try taps.standing(rideID: rideID)
            let here = standing.filter { $0.stop == stop }
            guard let tap = here.first(where: { $0.action.isOutcome }) ?? here.first(where: { $0.action == .arrived }) else {
                throw Failure.nothingStands(stop)
            }
            switch RidePolicy.undoRefusal(of: tap.policyTap, by: .dispatcher, undoUntil: tap.undoUntil, standing: standing.map(\.policyTap), now: now)
            {
            case nil: break
            case .laterFirst(let action, let stop): throw Failure.laterFirst(action, stop)
            case .windowPassed, .notForRiders: preconditionFailure("the office corrects any tap at any time")
            }
            try TransactionActor.set(actor, conn)
            let undone = try taps.undo(id: tap.id, now: now)
            if try TapService.putBack(after: tap, status: status, now: now, conn, refused: { Failure.cannotRestore($0) }) { status = .approved }
            let after = try taps.standing(rideID: rideID).first { $0.stop == stop }
            try AuditLog.record(
                conn, actor: actor, action: "tap.correct", subject: rideID.uuidString.lowercased(),
                details: [
                    "stop": stop.rawValue, "from": tap.action.rawValue, "to": after?.action.rawValue ?? "none",
                    "tapped_at": PGTimestamp.format(tap.at), "reason": reason,
                ])
            return Outcome(undone: undone, standing: after, rideStatus: status)
        }
    }
}
