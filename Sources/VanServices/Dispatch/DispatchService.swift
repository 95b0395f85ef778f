import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// The dispatcher's decisions on rides. Each is one transaction that goes through
/// the ride status rules, re-checks the schedule when a time or van changes, and
/// writes the audit log with the actor.
public struct DispatchService: Sendable {
    let pool: PGPool
    let timeZone: TimeZone
    /// The booking rules a new time must keep, as a rider's booking does: not in the past, not
    /// past the horizon (`VAND_BOOKING_HORIZON_DAYS`).
    let policy: BookingPolicy

    /// Decisions over `pool` for a service in `timeZone`; new times checked by `policy` (the office's, from ``BookingSettings``).
    public init(pool: PGPool, timeZone: TimeZone, policy: BookingPolicy = BookingSettings().policy) {
        self.pool = pool
        self.timeZone = timeZone
        self.policy = policy
    }

    /// Why a decision was refused; nothing changed.
    public enum DispatchError: Error, CustomStringConvertible, Sendable, Equatable {
        /// No ride with that reference, id or id prefix.
        case notFound(String)
        /// An id prefix matches several rides (ids are time-ordered: rides booked close together share a prefix).
        case ambiguous(String)
        /// The status rules forbid it.
        case transition(RideTransitionError)
        /// The new time or van does not fit; the sentence offers other times.
        case doesNotFit(String)
        /// Completed or no-show before the pickup time.
        case beforePickup(Date)
        /// A reason is required (reject, cancel).
        case reasonRequired
        /// The reason is longer than ``DispatchService/reasonLimit`` characters (the rider reads it whole).
        case reasonTooLong(Int)
        /// No van by that name, or it is retired.
        case unknownVan(String)
        /// The ride is under way (a driver's tap stands at its pickup): it stays on its van and the
        /// road sets its times. The sentence says which van, what happened when, and what to do.
        case underWay(String)
        /// The ride policy refuses it (``RidePolicy``): the sentence says why and what to do.
        case refused(String)
        /// The new time breaks the booking rules (in the past, past the horizon): the rule's words.
        case newTime(String)

        public var description: String {
            switch self {
            case .notFound(let id): return "no ride \(id); see `vanadmin rides list`"
            case .ambiguous(let id):
                return "'\(id)' matches several rides; give the ride's reference (REF in `vanadmin rides list`) or more of the id"
            case .transition(let error): return error.description
            case .doesNotFit(let sentence): return "does not fit: \(sentence)"
            case .beforePickup: return "the pickup time has not come yet; mark it after the pickup"
            case .reasonRequired: return "give a reason with --reason; the rider sees it"
            case .reasonTooLong(let count):
                return "the reason is \(count) characters; keep it to \(DispatchService.reasonLimit), the rider reads it whole"
            case .unknownVan(let name): return "no active van named '\(name)'; see `vanadmin vans list`"
            case .underWay(let sentence): return sentence
            case .refused(let sentence): return sentence
            case .newTime(let reason): return "the new time \(reason)"
            }
        }
    }

    /// Approves a pending ride, optionally at a new time or on a named van (checked like a booking).
    public func approve(_ id: String, at newTime: Date? = nil, van: String? = nil, actor: String, now: Date) async throws -> Ride {
        try await change(id, to: .approved, at: newTime, van: van, reason: nil, actor: actor, now: now, action: "ride.approve")
    }

    /// Rejects a pending ride; the reason is required and shown to the rider.
    public func reject(_ id: String, reason: String, actor: String, now: Date) async throws -> Ride {
        try await change(id, to: .rejected, reason: try Self.required(reason), actor: actor, now: now, action: "ride.reject")
    }

    /// The service cancels a ride (a van broke down); the reason is required.
    public func cancel(_ id: String, reason: String, actor: String, now: Date) async throws -> Ride {
        try await change(id, to: .cancelled, reason: try Self.required(reason), actor: actor, now: now, action: "ride.cancel")
    }

    /// Moves a ride to a new time and/or van, keeping its status; checked like a booking. A van
    /// named pins the ride there (``unpin(_:actor:now:)``): the planner re-times it, never moves it. A ride
    /// under way (a standing tap at its pickup) is not moved at all (``DispatchError/underWay(_:)``):
    /// it stays on the van at the curb or carrying the rider, and the road, not a plan, sets its times.
    public func move(_ id: String, at newTime: Date?, van: String?, actor: String, now: Date) async throws -> Ride {
        try await change(id, to: nil, at: newTime, van: van, reason: nil, actor: actor, now: now, action: "ride.move")
    }

    /// Lets the planner move ride `id` to another van again: a dispatcher's van choice (an approve
    /// or a move naming a van) pins the ride there until this. Audited; false when it was not pinned.
    @discardableResult
    public func unpin(_ id: String, actor: String, now: Date) async throws -> Bool {
        try await pool.withTransaction { conn in
            let rideID = try RideQueries.resolve(id, conn)
            try TransactionActor.set(actor, conn)
            let released =
                try conn.query(
                    """
                    UPDATE rides SET van_pinned_by = NULL WHERE id = \(rideID) AND van_pinned_by IS NOT NULL RETURNING id
                    """
                ).count == 1
            if released { try AuditLog.record(conn, actor: actor, action: "ride.unpin", subject: rideID.uuidString.lowercased(), details: [:]) }
            return released
        }
    }

    /// Marks an approved ride completed (only after its pickup time).
    public func complete(_ id: String, actor: String, now: Date) async throws -> Ride {
        try await change(id, to: .completed, reason: nil, actor: actor, now: now, action: "ride.complete")
    }

    /// Marks an approved ride a no-show (only after its pickup time).
    public func noShow(_ id: String, actor: String, now: Date) async throws -> Ride {
        try await change(id, to: .noShow, reason: nil, actor: actor, now: now, action: "ride.no_show")
    }

    /// What approving every pending ride did.
    public struct BulkResult: Sendable {
        /// Rides now approved.
        public var approved: [Ride] = []
        /// Rides that no longer fit, with the reason.
        public var refused: [(Ride, String)] = []
    }

    /// Approves every pending ride that still fits, in request order (on `day` if given).
    public func approveAllFeasible(on day: LocalDate?, actor: String, now: Date) async throws -> BulkResult {
        let interval = day?.interval(in: timeZone)
        let ids = try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT id::text AS id FROM rides WHERE status = 'pending' AND pickup_at > \(now)
                  AND (\(interval?.start) IS NULL OR (pickup_at >= \(interval?.start) AND pickup_at < \(interval?.end)))
                ORDER BY requested_at, created_at
                """
            ).map { try $0.decode(String.self, "id") }
        }
        var result = BulkResult()
        for id in ids {
            do {
                result.approved.append(try await approve(id, actor: actor, now: now))
            } catch let error as DispatchError {
                guard let ride = try await RideQueries(pool: pool).find(id) else { continue }
                result.refused.append((ride, error.description))
            }
        }
        return result
    }

    // MARK: One change, one transaction

    private func change(
        _ id: String, to status: RideStatus?, at newTime: Date? = nil, van vanName: String? = nil,
        reason: String?, actor: String, now: Date, action: String
    ) async throws -> Ride {
        let timeZone = self.timeZone
        if let newTime {
            do throws(ValidationError) { try policy.checkPickupTime(newTime, now: now) } catch { throw DispatchError.newTime(error.reason) }
        }
        return try await pool.withTransaction { conn in
            let rideID = try RideQueries.resolve(id, conn)
            try TransactionActor.set(actor, conn)
            guard let row = try conn.query("\(RideRecord.select) WHERE r.id = \(rideID) FOR UPDATE OF r").first else {
                throw DispatchError.notFound(id)
            }
            var ride = try RideRecord.ride(row)
            if let status {
                // Who may do what to a ride: the one policy (the console offers only what it allows).
                let policed: RidePolicy.Action? =
                    switch status {
                    case .cancelled: .cancel
                    case .noShow: .noShow
                    case .completed: .complete
                    default: nil
                    }
                if let action = policed,
                    let refusal = RidePolicy.refusal(
                        action, by: .dispatcher, status: ride.status, pickupAt: ride.pickupAt,
                        progress: try RidePolicy.Progress.read(rideID, conn), now: now)
                {
                    switch refusal {
                    case .status: throw DispatchError.transition(RideTransitionError(from: ride.status, to: status))
                    case .beforePickup: throw DispatchError.beforePickup(ride.pickupAt)
                    case .onBoard, .afterPickup, .byTaps: throw DispatchError.refused(RidePolicy.sentence(refusal, action, by: .dispatcher))
                    }
                }
                do { try ride.apply(status, at: now) } catch let error as RideTransitionError { throw DispatchError.transition(error) }
            } else if !ride.status.holdsVan {
                throw DispatchError.transition(RideTransitionError(from: ride.status, to: ride.status))
            } else if let sentence = try Self.underWay(rideID, timeZone: timeZone, conn) {
                throw DispatchError.underWay(sentence)
            }
            var vanID = ride.vanID
            if let vanName {
                guard let found = try VanStore.list(conn, includeRetired: false).first(where: { $0.name == vanName }) else {
                    throw DispatchError.unknownVan(vanName)
                }
                vanID = found.id
            }
            var dropoff = ride.estimatedDropoffAt
            // A new time or van is a new promise, placed like a booking (the ride leaves its old
            // route, whose other stops keep their times). An approval re-checks the ride on its
            // route with its own promise: service hours or the fleet may have changed since.
            if ride.status.holdsVan && (newTime != nil || vanName != nil || status == .approved) {
                let asked = newTime ?? ride.promise.asked
                let scheduler = try ServiceCalendarStore.scheduler(conn, timeZone: timeZone, around: asked)
                let vans = try VanStore.list(conn, includeRetired: false)
                // Keep the ride's van unless a new one is named, or it no longer exists.
                let forced = vanName != nil ? vanID : (vans.contains { $0.id == ride.vanID } ? ride.vanID : nil)
                let request = RideRequest(
                    pickup: ride.pickup.coordinate, dropoff: ride.dropoff.coordinate, wheelchair: ride.needsWheelchair,
                    pickupAt: asked, promise: ride.promise.kind, companions: ride.companions,
                    excludingRideID: ride.id, vanID: forced, notBefore: now)
                var placed: Assignment?
                var lost: VanDayRoutes.Snapshot?
                for _ in 0..<8 {
                    let (feasibility, snapshot) = try VanDayRoutes.plan(request, scheduler: scheduler, vans: vans, earlier: lost, conn)
                    guard case .feasible(let assignment) = feasibility else {
                        throw DispatchError.doesNotFit(scheduler.sentence(for: feasibility, requested: asked, promise: ride.promise.kind))
                    }
                    // The ride leaves its old place on the route too: its old van-days are locked as
                    // well. Only the new place's must be as the plan read them (leaving a route breaks
                    // no promise on it, and on another day they were never read), so the old ones are
                    // locked without that check, in day order with the new ones.
                    let leaving = DateInterval(start: ride.pickupAt, end: max(ride.pickupAt, ride.estimatedDropoffAt))
                    let target = Set(VanDayRoutes.vanDays(vanID: assignment.vanID, changes: assignment.changes, timeZone: timeZone))
                    let left = Set(ride.vanID.map { VanDayRoutes.vanDays(vanID: $0, changes: leaving, timeZone: timeZone) } ?? []).subtracting(target)
                    let leftFirst = left.map(\.day).min().map { first in target.map(\.day).min().map { first < $0 } ?? true } ?? false
                    try conn.execute(simple: "SAVEPOINT van_days")
                    if leftFirst { try VanDayRoutes.lockUnchecked(Array(left), conn) }
                    let unchanged = try VanDayRoutes.lock(Array(target), unchangedSince: snapshot, conn)
                    if !leftFirst { try VanDayRoutes.lockUnchecked(Array(left), conn) }
                    guard unchanged else {
                        try conn.execute(simple: "ROLLBACK TO SAVEPOINT van_days")
                        lost = snapshot
                        continue
                    }
                    try conn.execute(simple: "RELEASE SAVEPOINT van_days")
                    try VanDayRoutes.write(assignment.replanned, now: now, conn)
                    placed = assignment
                    break
                }
                guard let placed else { throw DispatchError.doesNotFit("The van's route kept changing; try again.") }
                ride.pickupAt = placed.pickupAt
                ride.promise = placed.promise
                ride.maxRideTime = placed.maxRideTime
                dropoff = placed.dropoffAt
                vanID = placed.vanID
            }
            let decided = status == .approved || status == .rejected
            do {
                try conn.execute(
                    """
                    UPDATE rides SET status = \(ride.status.rawValue), pickup_at = \(ride.pickupAt), estimated_dropoff_at = \(dropoff),
                           promise = \(ride.promise.kind.rawValue), window_start = \(ride.promise.window.start),
                           window_end = \(ride.promise.window.end), max_ride_seconds = \(Int(ride.maxRideTime.rounded(.up))),
                           van_id = \(vanID), reason = COALESCE(\(reason), reason), updated_at = \(now),
                           van_pinned_by = CASE WHEN \(vanName != nil) THEN \(actor) ELSE van_pinned_by END,
                           decided_by = CASE WHEN \(decided) THEN \(actor) ELSE decided_by END,
                           decided_at = CASE WHEN \(decided) THEN \(now) ELSE decided_at END,
                           cancelled_by = CASE WHEN \(status == .cancelled) THEN 'service' ELSE cancelled_by END,
                           cancelled_at = CASE WHEN \(status == .cancelled) THEN \(now) ELSE cancelled_at END,
                           reminded_at = CASE WHEN \(newTime != nil) THEN NULL ELSE reminded_at END
                    WHERE id = \(rideID)
                    """)
            } catch let error as PGError where error.sqlState == .checkViolation && error.constraint == "rides_under_way_keeps_van" {
                // A tap that stood before this change (the up-front check covers the usual case).
                throw DispatchError.underWay(
                    "the ride is under way (a driver's tap stands at its pickup): it stays on its van. Call the driver, or cancel the ride.")
            }
            do {
                try VanDayRoutes.checkNow(conn)
            } catch let error as PGError where error.sqlState == .checkViolation {
                throw DispatchError.doesNotFit("That would break a promise on the van's route (\(error.message)).")
            }
            var details = ["status": ride.status.rawValue]
            if let newTime { details["pickup_at"] = PGTimestamp.format(newTime) }
            if let vanName { details["van"] = vanName }
            if let reason { details["reason"] = reason }
            try AuditLog.record(conn, actor: actor, action: action, subject: rideID.uuidString.lowercased(), details: details)
            return try RideRecord.ride(try conn.query("\(RideRecord.select) WHERE r.id = \(rideID)").first!)
        }
    }

    /// Why the ride `rideID` is under way, as the dispatcher reads it, or nil when no tap stands
    /// at its pickup: "the rider is on board Van 1 (boarded 9:07 PM): …".
    static func underWay(_ rideID: UUID, timeZone: TimeZone, _ conn: PGConnection) throws -> String? {
        guard
            let row = try conn.query(
                """
                SELECT t.action, t.at, v.name AS van_name FROM stop_taps t JOIN shifts s ON s.id = t.shift_id JOIN vans v ON v.id = s.van_id
                WHERE t.ride_id = \(rideID) AND t.stop = 'pickup' AND t.undone_at IS NULL
                ORDER BY t.at DESC, t.id DESC LIMIT 1
                """
            ).first
        else { return nil }
        let (action, at, van) = (try row.decode(String.self, "action"), try row.decode(Date.self, "at"), try row.decode(String.self, "van_name"))
        let time = ServiceTime(timeZone: timeZone).text(at, .clockTime)
        let what =
            switch action {
            case "boarded": "the rider is on board \(van) (boarded \(time))"
            case "arrived": "\(van) is at the pickup (arrived \(time))"
            default: "\(van)'s driver marked the pickup \(action.replacingOccurrences(of: "_", with: "-")) at \(time)"
            }
        return what + ": a ride under way stays on its van, and the road sets its times. Call \(van)'s driver;"
            + " to take the ride off \(van), the driver undoes the tap, or cancel the ride."
    }

    /// The longest reason a rider is given (`rides.reason` holds it whole; never cut short).
    public static let reasonLimit = 500

    private static func required(_ reason: String) throws(DispatchError) -> String {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .reasonRequired }
        guard trimmed.count <= reasonLimit else { throw .reasonTooLong(trimmed.count) }
        return trimmed
    }
}
