import Foundation
import NIOPosix
import VanDomain
import VanPostgres
import VanScheduler

/// Improves a day's routes: plans on a snapshot without holding any lock (the search takes
/// seconds), then locks every van-day of that day and writes the better plan only if no route
/// changed meanwhile. Bookings are never blocked for the length of a search.
public struct PlanOptimizer: DayOptimizing {
    let pool: PGPool
    let timeZone: TimeZone
    let background: Bool

    /// An optimizer over `pool` for a service in `timeZone`. The search runs on the shared
    /// blocking pool (`NIOThreadPool.singleton`), or with `background` on the planner's one
    /// low-priority thread (``RouteImprover``), so a booking's work comes first.
    public init(pool: PGPool, timeZone: TimeZone, background: Bool = false) {
        self.pool = pool
        self.timeZone = timeZone
        self.background = background
    }

    /// What a run came to.
    public struct Outcome: Sendable, Hashable {
        /// The day's routes before.
        public var before: PlanMeasures
        /// After (the same as before when nothing better was found or written).
        public var after: PlanMeasures
        /// Rides given another van or other planned times.
        public var ridesChanged: Int
        /// False when a route changed while planning, so nothing was written (run again).
        public var written: Bool
    }

    /// Improves `day` for about `seconds` of search per stretch of service. Rides planned to start
    /// before `now` plus the scheduler's lock lead are not moved, nor is a ride under way (a
    /// driver's tap stands at its pickup), whenever it is planned: it stays on its van at its
    /// times (the database refuses to move it, sql/0033). `clock` measures the budget.
    public func optimize(day: LocalDate, seconds: Double, now: Date, clock: any TimeSource, actor: String) async throws -> Outcome {
        let timeZone = self.timeZone
        let interval = day.interval(in: timeZone)
        let (scheduler, vans, snapshot, rides) = try await pool.withConnection { conn in
            let scheduler = try ServiceCalendarStore.scheduler(conn, timeZone: timeZone, around: interval.start)
            // The versions of every van-day locked below (see there), and the rides around the day.
            let snapshot = try VanDayRoutes.snapshot(
                conn,
                span: DateInterval(
                    start: interval.start.addingTimeInterval(-scheduler.searchWindow - 86_400),
                    end: interval.end.addingTimeInterval(scheduler.searchWindow + 86_400)))
            return (
                scheduler, try VanStore.list(conn, includeRetired: false).filter(\.active), snapshot,
                try Self.markingUnderWay(snapshot.rides, conn)
            )
        }
        var before = PlanMeasures(rides: 0, driving: 0, vansUsed: 0, busy: 0), after = before
        var changes: [UUID: (vanID: Int64, stops: PlannedStops)] = [:]
        for stretch in scheduler.stretches(on: day) {
            // CPU-bound for `seconds`: on a thread of its own, never on the cooperative pool.
            let start = clock.now
            let budget = max(seconds, 0.001)
            let background = self.background
            let search: @Sendable () -> DayImprovement = {
                // In the background the budget is the search thread's own CPU time: under
                // SCHED_IDLE a busy machine slows the run down instead of cutting it short (at
                // most 20 times the budget in wall time, so a run always ends).
                let cpuStart = BackgroundSearchThread.threadCPUSeconds()
                let progress: () -> Double = {
                    let wall = clock.now.timeIntervalSince(start)
                    guard background else { return wall / budget }
                    return max((BackgroundSearchThread.threadCPUSeconds() - cpuStart) / budget, wall / (20 * budget))
                }
                return scheduler.improve(
                    stretch: stretch, vans: vans, rides: rides, lockBefore: now.addingTimeInterval(scheduler.lockLead),
                    progress: progress)
            }
            let result = try await background ? BackgroundSearchThread.run(search) : NIOThreadPool.singleton.runIfActive(search)
            before = before.adding(result.before)
            after = after.adding(result.after)
            changes.merge(result.changes) { $1 }
        }
        guard !changes.isEmpty else { return Outcome(before: before, after: before, ridesChanged: 0, written: true) }
        let (planned, measured) = (changes, (before: before, after: after))
        let written = try await Self.refusedUnderWay {
            try await pool.withTransaction { conn -> Bool in
                try TransactionActor.set(actor, conn)
                // A writer locks every van-day within a margin of the stops it changes; this day's stops
                // move inside the day, so the day and the one either side cover every writer of them.
                // In one statement, in (day, van) order as every writer takes them; all bumped.
                let vanDays = ((day.dayNumber - 1)...(day.dayNumber + 1)).flatMap { number in
                    vans.map { VanDayRoutes.VanDay(vanID: $0.id, day: LocalDate(dayNumber: number)) }
                }
                try conn.execute(simple: "SAVEPOINT van_days")
                guard try VanDayRoutes.lock(vanDays, unchangedSince: snapshot, conn) else {
                    try conn.execute(simple: "ROLLBACK TO SAVEPOINT van_days")  // no bump, no lock held
                    return false
                }
                // One statement for every ride changed (it was one each: hundreds of round trips while
                // every van-day of three days was locked, and bookings on them waited).
                try conn.execute(VanDayRoutes.reassigning(planned, now: now))
                try VanDayRoutes.checkNow(conn)
                try AuditLog.record(
                    conn, actor: actor, action: "plan.optimize", subject: day.description,
                    details: [
                        "rides_changed": String(planned.count),
                        "driving_minutes_before": String(Int(measured.before.driving / 60)),
                        "driving_minutes_after": String(Int(measured.after.driving / 60)),
                    ])
                return true
            }
        }
        return Outcome(before: before, after: written ? after : before, ridesChanged: written ? changes.count : 0, written: written)
    }
}

extension PlanOptimizer {
    /// `rides` with ``BookedRide/underWay`` set on each that has a driver's tap standing at its
    /// pickup (one indexed read for all of them).
    static func markingUnderWay(_ rides: [BookedRide], _ conn: PGConnection) throws -> [BookedRide] {
        guard !rides.isEmpty else { return rides }
        let ids = rides.map(\.id).postgresArrayLiteral
        let underWay = Set(
            try conn.query(
                """
                SELECT DISTINCT ride_id FROM stop_taps WHERE ride_id = ANY(\(ids)::uuid[]) AND stop = 'pickup' AND undone_at IS NULL
                """ as SQLQuery
            ) { try $0.decode(UUID.self, "ride_id") })
        guard !underWay.isEmpty else { return rides }
        return rides.map { ride in
            var ride = ride
            ride.underWay = underWay.contains(ride.id)
            return ride
        }
    }

    /// `write`'s answer, or false (nothing written, run again) when the database refused to move
    /// a ride that a driver tapped while the plan was searched (sql/0033): the next run keeps it.
    static func refusedUnderWay(_ write: () async throws -> Bool) async throws -> Bool {
        do {
            return try await write()
        } catch let error as PGError where error.sqlState == .checkViolation && error.constraint == "rides_under_way_keeps_van" {
            return false
        }
    }
}

extension PlanMeasures {
    /// Two stretches' measures together.
    func adding(_ other: PlanMeasures) -> PlanMeasures {
        PlanMeasures(rides: rides + other.rides, driving: driving + other.driving, vansUsed: max(vansUsed, other.vansUsed), busy: busy + other.busy)
    }
}
