import Foundation
import VanDomain
import VanPostgres

/// A driver's taps at stops, and their undo. Each is one transaction that locks the ride's row,
/// so taps on one ride take turns: a double tap (another key, same action) finds the action
/// standing and changes nothing; a retried tap (the same key) answers the first result. A
/// no-show or drop-off sets the ride's status in the same transaction; the van's position sent
/// with a tap is recorded with it.
public struct TapService: Sendable {
    let pool: PGPool
    let clock: any TimeSource
    let settings: RoadSettings
    let timeZone: TimeZone

    /// Taps over `pool`, for a service in `timeZone`, timed by `clock`.
    public init(pool: PGPool, clock: any TimeSource, settings: RoadSettings, timeZone: TimeZone) {
        self.pool = pool
        self.clock = clock
        self.settings = settings
        self.timeZone = timeZone
    }

    /// Records `request` for the driver `driver`.
    /// - Throws: ``RoadError`` (no open shift, not on the run, out of order, a no-show too early,
    ///   a reused key, …); nothing changed.
    public func tap(driver: NetID, _ request: TapRequest) async throws -> TapResult {
        let (now, timeZone) = (clock.now, timeZone)
        let (undoWindow, rule) = (settings.undoWindow, settings.noShowRule)
        return try await pool.withTransaction { conn in
            let taps = TapStore(conn, undoWindow: undoWindow)
            if let earlier = try Self.retry(of: request, driver: driver, taps, conn) { return earlier }
            guard let shift = try ShiftStore(conn).open(driver: driver) else { throw RoadError.noOpenShift }
            guard let ride = try RunRides.locked(request.rideID, vanID: shift.vanID, day: shift.runSpan(at: now, in: timeZone), conn) else {
                throw RoadError.notOnRun
            }
            // Another request with this key may have committed while this one waited for the lock.
            if let earlier = try Self.retry(of: request, driver: driver, taps, conn) { return earlier }
            let standing = try taps.standing(rideID: ride.id)
            if request.action.fits(request.stop), let done = standing.first(where: { $0.stop == request.stop && $0.action == request.action }) {
                return TapResult(outcome: .alreadyDone, tap: done, rideStatus: ride.status)
            }
            // Who may tap what, when: the one ride policy (the driver's run offers what it allows).
            if let refusal = RidePolicy.tapRefusal(request.action, at: request.stop, ride.roadState(standing: standing), rule: rule, now: now) {
                throw RoadError(refusal)
            }
            try TransactionActor.set(driver.rawValue, conn)
            guard let tap = try taps.insert(request, shiftID: shift.id, now: now) else {
                // The key was used at once for something else (another ride): refuse, as a retry would.
                throw RoadError.tapKeyReused
            }
            var status = ride.status
            if let ended = request.action.rideStatus {
                // Through the transition table, as every status change (approved → no-show, completed).
                guard ride.status.canTransition(to: ended) else { throw RoadError.rideNotActive(ride.status) }
                try conn.execute("UPDATE rides SET status = \(ended.rawValue), updated_at = \(now) WHERE id = \(ride.id)")
                status = ended
            }
            // The van was where the phone says when the tap was recorded, by the rule every fix
            // keeps; a fix outside its window is dropped, not the tap.
            if let fix = request.position, let at = try? settings.time(of: fix, now: now) {
                _ = try PositionStore(conn).record(vanID: shift.vanID, fix: fix, at: at, source: .driver)
            }
            return TapResult(outcome: .applied, tap: tap, rideStatus: status)
        }
    }

    /// Undoes the driver's own tap with `tapKey`, within ``RoadSettings/undoWindow`` of its
    /// recording. Undoing a no-show or a drop-off puts the ride back to approved (the one way
    /// back from those statuses). Undoing an undone tap answers it again. Once the tap's shift has
    /// ended (by the driver or the dispatcher), its taps stand as they are.
    /// - Throws: ``RoadError/noSuchTap``, ``RoadError/shiftEnded``, ``RoadError/undoWindowPassed(closedAt:)``,
    ///   ``RoadError/undoLaterFirst(_:)``, ``RoadError/cannotRestore(_:)``.
    public func undo(driver: NetID, tapKey: UUID) async throws -> StopTap {
        let now = clock.now
        let undoWindow = settings.undoWindow
        return try await pool.withTransaction { conn in
            let taps = TapStore(conn, undoWindow: undoWindow)
            guard let found = try taps.tap(key: tapKey), found.driver == driver else { throw RoadError.noSuchTap }
            // The ride's lock first, as taps take it: an undo and a tap of one ride take turns.
            let status = try conn.query("SELECT status FROM rides WHERE id = \(found.tap.rideID) FOR UPDATE").first?.decode(String.self, "status")
            guard let tap = try taps.tap(key: tapKey)?.tap else { throw RoadError.noSuchTap }
            guard tap.stands else { return tap }
            guard try ShiftStore(conn).stillOpen(id: tap.shiftID) else { throw RoadError.shiftEnded }
            let standing = try taps.standing(rideID: tap.rideID).map(\.policyTap)
            if let refusal = RidePolicy.undoRefusal(of: tap.policyTap, by: .driver, undoUntil: tap.undoUntil, standing: standing, now: now) {
                throw RoadError(refusal)
            }
            try TransactionActor.set(driver.rawValue, conn)
            let undone = try taps.undo(id: tap.id, now: now)
            _ = try Self.putBack(after: tap, status: status.flatMap(RideStatus.init(rawValue:)), now: now, conn) { RoadError.cannotRestore($0) }
            return undone
        }
    }

    /// After `tap` is undone: a ride it ended (a no-show, a drop-off) and still in that `status`
    /// goes back to approved, the one way back from those statuses, and the van's route is checked
    /// again; a broken route throws `refused(why)`. Whether the ride went back.
    static func putBack(
        after tap: StopTap, status: RideStatus?, now: Date, _ conn: PGConnection,
        refused: (String) -> any Error
    ) throws -> Bool {
        guard let ended = tap.action.rideStatus, status == ended, ended.canBeRestored(to: .approved) else { return false }
        try conn.execute("UPDATE rides SET status = 'approved', updated_at = \(now) WHERE id = \(tap.rideID)")
        do {
            try VanDayRoutes.checkNow(conn)
        } catch let error as PGError where error.sqlState == .checkViolation {
            throw refused(error.message)
        }
        return true
    }

    /// The first answer for a request whose key was used before; nil for a new key.
    static func retry(of request: TapRequest, driver: NetID, _ taps: TapStore, _ conn: PGConnection) throws -> TapResult? {
        guard let found = try taps.tap(key: request.tapKey) else { return nil }
        let tap = found.tap
        guard found.driver == driver, tap.rideID == request.rideID, tap.stop == request.stop, tap.action == request.action else {
            throw RoadError.tapKeyReused
        }
        let status = try conn.query("SELECT status FROM rides WHERE id = \(tap.rideID)").first?.decode(String.self, "status")
        return TapResult(outcome: .retried, tap: tap, rideStatus: status.flatMap(RideStatus.init(rawValue:)) ?? .approved)
    }
}
