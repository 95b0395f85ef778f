import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// Room kept for open will-calls (``SchedulerSettings/willCallHoldMinutes``). Her "I'm ready"
/// comes at a time nobody knows, so no van is set aside for her. Instead each open will-call is
/// a ride expected `hold` minutes after the ride there's planned drop-off, picked up anywhere in
/// the office's wait (``BookingPolicy/willCallMaxWait``), and another booking may not take the
/// last room for it: a placement that leaves some van able to take her stands; one that leaves
/// none is placed on another van, or refused at that time with the nearest times that keep it.
/// A will-call that no van could take before the booking does not hold it up.
struct WillCallHolds {
    /// One open will-call, as the ride it may become.
    struct Hold: Hashable {
        /// The ride there.
        let there: UUID
        /// Her way back, asked at the expected time.
        let request: RideRequest
    }

    let holds: [Hold]
    /// How wide her pickup may be: the office's wait.
    let wait: TimeInterval

    /// No room held.
    static let none = WillCallHolds(holds: [], wait: 0)

    /// How far from a booking's asked time a will-call's expected time may be and still be
    /// checked: further apart, one cannot take the other's van.
    static let reach: TimeInterval = 2 * 3_600

    /// The open will-calls expected within ``reach`` of `span`, `after` the ride there's planned
    /// drop-off, whose way back is not yet over (`now`); not those of `excluding` (the rides
    /// there of the ways back being booked).
    static func near(
        _ span: DateInterval, after hold: TimeInterval, wait: TimeInterval, excluding: Set<UUID>, now: Date, _ conn: PGConnection
    ) throws -> WillCallHolds {
        let from = max(span.start.addingTimeInterval(-reach), now.addingTimeInterval(-wait)).addingTimeInterval(-hold)
        let to = span.end.addingTimeInterval(reach - hold)
        let query: SQLQuery = """
            SELECT w.ride_id, w.pickup_lat, w.pickup_lon, r.pickup_lat AS back_lat, r.pickup_lon AS back_lon,
                   r.needs_wheelchair, r.companions, r.estimated_dropoff_at
            FROM will_calls w JOIN rides r ON r.id = w.ride_id
            WHERE w.ready_at IS NULL AND w.closed_at IS NULL
              AND r.status IN ('pending', 'approved', 'completed')
              AND r.estimated_dropoff_at BETWEEN \(from) AND \(to)
            """
        let holds = try conn.query(
            query,
            rows: { row in
                let there = try row.decode(UUID.self, "ride_id")
                let expected = try row.decode(Date.self, "estimated_dropoff_at").addingTimeInterval(hold)
                return Hold(
                    there: there,
                    request: RideRequest(
                        pickup: try coordinate(row, "pickup_lat", "pickup_lon"), dropoff: try coordinate(row, "back_lat", "back_lon"),
                        wheelchair: try row.decode(Bool.self, "needs_wheelchair"), pickupAt: max(expected, now),
                        companions: try row.decode(Int.self, "companions"), notBefore: now))
            })
        return WillCallHolds(holds: holds.filter { !excluding.contains($0.there) }, wait: wait)
    }

    private static func coordinate(_ row: some PGRowReading, _ lat: String, _ lon: String) throws -> Coordinate? {
        guard let latitude = try row.decode(Double?.self, lat), let longitude = try row.decode(Double?.self, lon) else { return nil }
        return try? Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The holds expected within ``reach`` of `date`: the ones a ride then could take the room of.
    func around(_ date: Date) -> WillCallHolds {
        WillCallHolds(holds: holds.filter { abs($0.request.pickupAt.timeIntervalSince(date)) <= Self.reach }, wait: wait)
    }

    /// Whether `assignment` of `request` on `rides` leaves room for every will-call that had it.
    func kept(by assignment: Assignment, of request: RideRequest, on rides: [BookedRide], scheduler: Scheduler, vans: [Van]) -> Bool {
        guard !holds.isEmpty else { return true }
        let after = assignment.booking(request, id: UUID(), into: rides)
        let planner = holdPlanner(scheduler)
        for hold in holds where !planner.fits(hold.request, vans: vans, rides: after) {
            // Held up only by a will-call that still had room before this booking.
            if planner.fits(hold.request, vans: vans, rides: rides) { return false }
        }
        return true
    }

    /// Where `request` goes without taking a will-call's last room: `best` if it keeps them, else
    /// the cheapest placement on another van that does; nil when none does.
    func placement(
        _ best: Assignment, of request: RideRequest, on rides: [BookedRide], scheduler: Scheduler, vans: [Van]
    ) -> Assignment? {
        if kept(by: best, of: request, on: rides, scheduler: scheduler, vans: vans) { return best }
        var asked = scheduler
        asked.searchWindow = 0
        let others = vans.compactMap { van -> Assignment? in
            guard van.id != best.vanID else { return nil }
            var pinned = request
            pinned.vanID = van.id
            guard case .feasible(let assignment) = asked.check(pinned, vans: vans, rides: rides), !assignment.nearRouteEdge else { return nil }
            return assignment
        }
        return others.sorted { $0.addedDriving < $1.addedDriving }
            .first { kept(by: $0, of: request, on: rides, scheduler: scheduler, vans: vans) }
    }

    /// How far apart the times tried for a refusal's suggestions are.
    static let suggestionStep: TimeInterval = 5 * 60

    /// The nearest times either side of `request`'s, on a 5-minute grid within the scheduler's
    /// search window, that fit and keep every will-call's room: the suggestions of a refusal.
    func suggestions(for request: RideRequest, on rides: [BookedRide], scheduler: Scheduler, vans: [Van]) -> Feasibility {
        var asked = scheduler
        asked.searchWindow = 0
        let window = scheduler.searchWindow.isFinite ? max(0, scheduler.searchWindow) : 0
        let steps = Int(window / Self.suggestionStep)
        func suggestion(_ offset: TimeInterval) -> Suggestion? {
            var moved = request
            moved.pickupAt = request.pickupAt.addingTimeInterval(offset)
            if let notBefore = request.notBefore, moved.pickupAt < notBefore { return nil }
            if let notAfter = request.notAfter, moved.pickupAt > notAfter { return nil }
            guard case .feasible(let best) = asked.check(moved, vans: vans, rides: rides),
                let placed = placement(best, of: moved, on: rides, scheduler: scheduler, vans: vans)
            else { return nil }
            return Suggestion(
                pickupAt: placed.pickupAt, dropoffAt: placed.dropoffAt, vanID: placed.vanID, withinADAWindow: abs(offset) <= 3_600,
                minutesFromRequested: Int((offset / 60).rounded()), asked: moved.pickupAt, promise: request.promise)
        }
        let earlier = steps == 0 ? nil : (1...steps).lazy.compactMap { suggestion(-Double($0) * Self.suggestionStep) }.first
        let later = steps == 0 ? nil : (1...steps).lazy.compactMap { suggestion(Double($0) * Self.suggestionStep) }.first
        return .infeasible(reason: .occupied, earlier: earlier, later: later)
    }

    /// A scheduler that asks whether a will-call fits anywhere in the wait from its expected time.
    private func holdPlanner(_ scheduler: Scheduler) -> Scheduler {
        var planner = scheduler
        planner.searchWindow = 0
        planner.windowWidth = wait
        return planner
    }
}

extension Scheduler {
    /// Whether `request` fits at its asked time.
    fileprivate func fits(_ request: RideRequest, vans: [Van], rides: [BookedRide]) -> Bool {
        if case .feasible = check(request, vans: vans, rides: rides) { return true }
        return false
    }
}
