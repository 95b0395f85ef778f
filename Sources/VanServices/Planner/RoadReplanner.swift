import Foundation
import NIOPosix
import VanDomain
import VanPostgres
import VanScheduler

/// Re-plans a service day from the road (``Scheduler/replanFromRoad(vans:starts:rides:now:margin:atRisk:frozen:)``):
/// reads where each van on shift is (its latest position while fresh, else the place of its last
/// tap), which stops are done (the `stop_actuals` view: boarded riders stay on their vans), and
/// the rides still holding vans; plans without holding a lock; then writes through the same
/// van-day locking path as the planner (``PlanOptimizer``), only if no route changed meanwhile.
/// Changed times are 'replanned' (no event), a ride put on another van 'reassigned' (the database's
/// event trigger decides). Every time comes from the injected `now`.
public struct RoadReplanner: Sendable {
    let pool: PGPool
    let timeZone: TimeZone
    /// A position older than this counts as unknown (`VAND_POSITION_STALE`).
    let positionStale: TimeInterval
    /// The slack a move must leave: a ride moved is served at least this long before its
    /// window ends, and no other ride gives up its last this-long of slack for it (see
    /// ``Scheduler/replanFromRoad(vans:starts:rides:now:margin:atRisk:frozen:)``).
    let margin: TimeInterval
    /// A ride projected to be served in its window's last this-long is at risk: moved too, where
    /// another place keeps the margin.
    let atRisk: TimeInterval

    /// The frozen horizon: a rider whose pickup opens within this long has been told when her van
    /// comes, and re-planning makes it no later (see
    /// ``Scheduler/replanFromRoad(vans:starts:rides:now:margin:atRisk:frozen:)``; 0: off).
    let frozen: TimeInterval
    /// Whether each look at the road first learns its speed from the taps since the last
    /// (``RoadSpeeds``); off only to measure what learning gives.
    let learnsSpeeds: Bool

    /// The frozen horizon by default: 20 minutes, past the reminder's 15 (`VAND_REMINDER_LEAD`),
    /// so every rider reminded from her van's ETA keeps the time she was told.
    public static let defaultFrozen: TimeInterval = 20 * 60
    /// The margin a move keeps by default: two minutes, about the spread of a few campus legs'
    /// driving times around the model's.
    public static let defaultMargin: TimeInterval = 120
    /// A ride is at risk by default when projected in its window's last minute: one slow leg from late.
    public static let defaultAtRisk: TimeInterval = 60

    /// A re-planner over `pool`, for a service in `timeZone`; `margin`, `atRisk`, `frozen` and
    /// `learnsSpeeds` as above (0: off).
    public init(
        pool: PGPool, timeZone: TimeZone, positionStale: TimeInterval = 120, margin: TimeInterval = RoadReplanner.defaultMargin,
        atRisk: TimeInterval = RoadReplanner.defaultAtRisk, frozen: TimeInterval = RoadReplanner.defaultFrozen, learnsSpeeds: Bool = true
    ) {
        self.learnsSpeeds = learnsSpeeds
        self.pool = pool
        self.timeZone = timeZone
        self.positionStale = positionStale
        self.margin = margin
        self.atRisk = atRisk
        self.frozen = frozen
    }

    /// What a run came to.
    public struct Outcome: Sendable, Hashable {
        /// Vans on shift that were re-planned.
        public var vans: Int
        /// Rides given other planned times or another van.
        public var ridesChanged: Int
        /// Rides put on another van (a subset of `ridesChanged`).
        public var moved: Set<UUID>
        /// Rides whose promise no van on shift can keep (left as planned).
        public var unkept: Set<UUID>
        /// Rides late if the vans drove their routes as planned from where they are (before re-planning).
        public var lateAsPlanned: Set<UUID>
        /// False when a route changed while planning, so nothing was written (run again).
        public var written: Bool
    }

    /// What the road says about a day at `now`: the vans on shift, their starts, the rides.
    struct Road: Sendable {
        var scheduler: Scheduler
        var vans: [Van]
        var starts: [Int64: VanStart]
        var rides: [RoadRide]
        var snapshot: VanDayRoutes.Snapshot
    }

    /// Re-plans the rest of `day` from the road at `now`, as `actor`.
    public func replan(day: LocalDate, now: Date, actor: String) async throws -> Outcome {
        let (road, plan) = try await project(day: day, now: now)
        var outcome = Outcome(
            vans: road.vans.count, ridesChanged: plan.changes.count, moved: plan.moved, unkept: plan.unkept,
            lateAsPlanned: plan.lateAsPlanned, written: true)
        guard !plan.changes.isEmpty else { return outcome }
        let changes = plan.changes, vans = road.vans, snapshot = road.snapshot
        // A ride tapped while this was planned stays on its van (sql/0033): nothing written, run again.
        outcome.written = try await PlanOptimizer.refusedUnderWay {
            try await pool.withTransaction { conn -> Bool in
                try TransactionActor.set(actor, conn)
                // As the planner does: every van-day of the day and the one either side, in one
                // statement in (day, van) order, checked against the versions planned from.
                let vanDays = ((day.dayNumber - 1)...(day.dayNumber + 1)).flatMap { number in
                    vans.map { VanDayRoutes.VanDay(vanID: $0.id, day: LocalDate(dayNumber: number)) }
                }
                try conn.execute(simple: "SAVEPOINT van_days")
                guard try VanDayRoutes.lock(vanDays, unchangedSince: snapshot, conn) else {
                    try conn.execute(simple: "ROLLBACK TO SAVEPOINT van_days")
                    return false
                }
                try conn.execute(VanDayRoutes.reassigning(changes, now: now))
                try VanDayRoutes.checkNow(conn)
                try AuditLog.record(
                    conn, actor: actor, action: "plan.road", subject: day.description,
                    details: [
                        "rides_changed": String(changes.count), "rides_moved": String(plan.moved.count),
                        "rides_unkept": String(plan.unkept.count),
                    ])
                return true
            }
        }
        if !outcome.written { (outcome.ridesChanged, outcome.moved) = (0, []) }
        return outcome
    }

    /// The re-plan of `day` from the road at `now`, not written: the projected routes (as planned
    /// and re-planned) and what re-planning would change.
    public func projection(day: LocalDate, now: Date) async throws -> RoadReplan {
        try await project(day: day, now: now).plan
    }

    private func project(day: LocalDate, now: Date) async throws -> (road: Road, plan: RoadReplan) {
        let road = try await read(day: day, now: now)
        guard !road.vans.isEmpty, !road.rides.isEmpty else { return (road, RoadReplan()) }
        let (margin, atRisk, frozen) = (self.margin, self.atRisk, self.frozen)
        let plan = try await NIOThreadPool.singleton.runIfActive {
            road.scheduler.replanFromRoad(
                vans: road.vans, starts: road.starts, rides: road.rides, now: now, margin: margin, atRisk: atRisk,
                frozen: frozen)
        }
        return (road, plan)
    }

    /// Reads the road of `day` at `now`.
    func read(day: LocalDate, now: Date) async throws -> Road {
        let interval = day.interval(in: timeZone)
        let timeZone = self.timeZone, stale = positionStale
        // What the vans' drives since the last look say of the road's speed (``RoadSpeeds``).
        if learnsSpeeds { try await RoadSpeeds.learn(pool, now: now, timeZone: timeZone) }
        return try await pool.withConnection { conn in
            // The road's speed as learned for this hour (from the legs just learned).
            let scheduler = try ServiceCalendarStore.scheduler(conn, timeZone: timeZone, around: interval.start, roadAt: now)
            // The vans on shift now; without a driver a van is not on the road.
            let onShift = Set(
                try conn.query("SELECT van_id FROM shifts WHERE ended_at IS NULL" as SQLQuery) { row in
                    try row.decode(Int64.self, "van_id")
                })
            let vans = try VanStore.list(conn, includeRetired: false).filter { $0.active && onShift.contains($0.id) }
            let snapshot = try VanDayRoutes.snapshot(conn, span: interval)
            let ids = snapshot.rides.map(\.id).postgresArrayLiteral
            var pickups: [UUID: (arrived: Date?, boarded: Date?)] = [:]
            for (id, arrived, departed, outcome) in try conn.query(
                """
                SELECT ride_id, arrived_at, departed_at, outcome FROM stop_actuals
                WHERE ride_id = ANY(\(ids)::uuid[]) AND stop = 'pickup'
                """ as SQLQuery,
                rows: { row in
                    (
                        try row.decode(UUID.self, "ride_id"), try row.decode(Date?.self, "arrived_at"), try row.decode(Date?.self, "departed_at"),
                        try row.decode(String?.self, "outcome")
                    )
                })
            {
                pickups[id] = (arrived, outcome == "boarded" ? departed : nil)
            }
            let rides = snapshot.rides.filter { onShift.contains($0.vanID) }.map { ride -> RoadRide in
                guard let actual = pickups[ride.id] else { return RoadRide(ride) }
                if let boarded = actual.boarded { return RoadRide(ride, progress: .aboard(boardedAt: boarded)) }
                return RoadRide(ride, progress: actual.arrived != nil ? .arrived : .waiting)
            }
            // Where each van is: its position while fresh, else the place of its last standing tap today.
            var starts: [Int64: VanStart] = [:]
            for (van, at, lat, lon) in try conn.query(
                "SELECT van_id, at, lat, lon FROM van_positions" as SQLQuery,
                rows: { row in
                    (
                        try row.decode(Int64.self, "van_id"), try row.decode(Date.self, "at"), try row.decode(Double.self, "lat"),
                        try row.decode(Double.self, "lon")
                    )
                }) where at >= now.addingTimeInterval(-stale)
            {
                starts[van] = VanStart(place: try Coordinate(latitude: lat, longitude: lon), at: now)
            }
            for (van, lat, lon) in try conn.query(
                """
                SELECT DISTINCT ON (s.van_id) s.van_id,
                       CASE WHEN t.stop = 'pickup' THEN r.pickup_lat ELSE r.dropoff_lat END AS lat,
                       CASE WHEN t.stop = 'pickup' THEN r.pickup_lon ELSE r.dropoff_lon END AS lon
                FROM stop_taps t JOIN shifts s ON s.id = t.shift_id JOIN rides r ON r.id = t.ride_id
                WHERE t.undone_at IS NULL AND t.at >= \(interval.start) AND t.at < \(interval.end) AND t.at <= \(now)
                ORDER BY s.van_id, t.at DESC, t.id DESC
                """ as SQLQuery,
                rows: { row in
                    (try row.decode(Int64.self, "van_id"), try row.decode(Double?.self, "lat"), try row.decode(Double?.self, "lon"))
                }) where starts[van] == nil
            {
                let place = try lat.flatMap { lat in try lon.map { try Coordinate(latitude: lat, longitude: $0) } }
                starts[van] = VanStart(place: place, at: now)
            }
            for van in vans where starts[van.id] == nil { starts[van.id] = VanStart(place: nil, at: now) }
            return Road(scheduler: scheduler, vans: vans, starts: starts, rides: rides, snapshot: snapshot)
        }
    }
}
