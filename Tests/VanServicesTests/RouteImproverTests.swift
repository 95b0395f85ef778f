import Foundation
import NIOPosix
import Synchronization
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import VanServices

/// A day of two vans that each zig-zag between two far-apart corners of town, written with plain
/// SQL (feasible: every promise kept, so the route trigger accepts it, but wasteful): van 1 and
/// van 2 alternate "P" rides (SCL → SML) and "Q" rides (3 km east), so each drives ~13 minutes
/// empty between rides where one van per corner would drive ~3.
struct WastefulDay {
    let f: BookingFixture
    let day = try! LocalDate("2026-11-23")
    /// Monday 08:50: the 09:00 rides are within the 15-minute lock lead and must not move.
    let now: Date
    let p1: Coordinate, p2: Coordinate
    let q1 = try! Coordinate(latitude: 41.3100, longitude: -72.8900)
    let q2 = try! Coordinate(latitude: 41.3140, longitude: -72.8850)
    let estimator = TripEstimator()

    /// A stored ride as the checks read it.
    struct Row: Hashable {
        let id: UUID, vanID: Int64, status: String, pickupAt: Date, dropoffAt: Date, windowStart: Date, windowEnd: Date, maxRide: Int
        let promise: String, pickup: Coordinate, dropoff: Coordinate, seats: Int
    }

    init() async throws {
        f = try await BookingFixture(vans: [("Van 1", 8, 1), ("Van 2", 8, 1)], riders: 60, oneRiderAtATime: false)
        now = f.monday(8, 50)
        p1 = f.scl
        p2 = f.sml
        let (p1, p2, q1, q2, estimator) = (self.p1, self.p2, q1, q2, estimator)
        let rides: [(van: Int64, hour: Int, minute: Int, from: Coordinate, to: Coordinate)] = [
            (1, 9, 0, p1, p2), (1, 9, 40, q1, q2), (1, 10, 20, p1, p2), (1, 11, 0, q1, q2), (1, 11, 40, p1, p2),
            (2, 9, 0, q1, q2), (2, 9, 40, p1, p2), (2, 10, 20, q1, q2), (2, 11, 0, p1, p2), (2, 11, 40, q1, q2),
        ]
        let times = rides.map { f.monday($0.hour, $0.minute) }
        let requestedAt = f.now
        try await f.db.pool.withTransaction { conn in
            for (index, ride) in rides.enumerated() {
                let pickupAt = times[index]
                let dropoffAt = pickupAt.addingTimeInterval(
                    estimator.tripDuration(from: ride.from, to: ride.to, wheelchair: false) - estimator.alighting)
                try conn.execute(
                    """
                    INSERT INTO rides (id, net_id, kind, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon, requested_at, pickup_at,
                                       estimated_dropoff_at, status, van_id, promise, window_start, window_end, max_ride_seconds)
                    VALUES (\(UUID()), \("rider\(index)"), 'scheduled', \(ride.from.latitude), \(ride.from.longitude),
                            \(ride.to.latitude), \(ride.to.longitude), \(requestedAt), \(pickupAt), \(dropoffAt), 'approved',
                            (SELECT id FROM vans WHERE name = \("Van \(ride.van)")), 'pickup', \(pickupAt),
                            \(pickupAt.addingTimeInterval(900)), 1800)
                    """)
            }
        }
    }

    /// Every ride, as stored.
    func rows() async throws -> [Row] {
        try await f.db.pool.withConnection { conn in
            try conn.query(
                """
                SELECT id, van_id, status, pickup_at, estimated_dropoff_at, window_start, window_end, max_ride_seconds, promise,
                       pickup_lat, pickup_lon, dropoff_lat, dropoff_lon, ride_seats(needs_wheelchair, companions)
                FROM rides ORDER BY id
                """
            ).map {
                Row(
                    id: try $0.decode(at: 0), vanID: try $0.decode(at: 1), status: try $0.decode(at: 2), pickupAt: try $0.decode(at: 3),
                    dropoffAt: try $0.decode(at: 4), windowStart: try $0.decode(at: 5), windowEnd: try $0.decode(at: 6),
                    maxRide: try $0.decode(at: 7),
                    promise: try $0.decode(at: 8),
                    pickup: try Coordinate(latitude: try $0.decode(at: 9), longitude: try $0.decode(at: 10)),
                    dropoff: try Coordinate(latitude: try $0.decode(at: 11), longitude: try $0.decode(at: 12)), seats: try $0.decode(at: 13))
            }
        }
    }

    /// Minutes of empty driving between consecutive stops of each van, worked out here from the
    /// stored stops (not from the engine's measures).
    func deadheadMinutes(_ rows: [Row]) -> Double {
        var total = 0.0
        for van in Set(rows.map(\.vanID)) {
            let stops = rows.filter { $0.vanID == van && ["approved", "pending"].contains($0.status) }
                .flatMap { [(at: $0.pickupAt, place: $0.pickup, order: 1), (at: $0.dropoffAt, place: $0.dropoff, order: 0)] }
                .sorted { ($0.at, $0.order) < ($1.at, $1.order) }
            for (a, b) in zip(stops, stops.dropFirst()) { total += estimator.deadhead(from: a.place, to: b.place) / 60 }
        }
        return total
    }

    /// The promises and the load, checked from the stored rows: every ride holding a van is planned
    /// inside its window and its ride-time limit, and no van carries more riders than it has seats.
    func expectConsistent(_ rows: [Row], seats: Int = 8, sourceLocation: SourceLocation = #_sourceLocation) {
        for row in rows where row.status == "approved" || row.status == "pending" {
            let promised = row.promise == "pickup" ? row.pickupAt : row.dropoffAt
            #expect(
                promised >= row.windowStart && promised <= row.windowEnd, "ride \(row.id) planned outside its window", sourceLocation: sourceLocation)
            #expect(row.dropoffAt.timeIntervalSince(row.pickupAt) <= Double(row.maxRide), "ride \(row.id) too long", sourceLocation: sourceLocation)
            #expect(row.dropoffAt > row.pickupAt, sourceLocation: sourceLocation)
        }
        for van in Set(rows.map(\.vanID)) {
            var events: [(at: Date, change: Int)] = []
            for row in rows where row.vanID == van && (row.status == "approved" || row.status == "pending") {
                events.append((row.pickupAt, row.seats))
                events.append((row.dropoffAt, -row.seats))
            }
            events.sort { $0.at != $1.at ? $0.at < $1.at : $0.change < $1.change }
            var aboard = 0
            for event in events {
                aboard += event.change
                #expect(aboard <= seats, "van \(van) overloaded", sourceLocation: sourceLocation)
            }
        }
    }
}

/// Holds the first optimization at a gate on a thread of its own, and counts calls.
final class GatedOptimizer: DayOptimizing {
    let inner: any DayOptimizing
    let gate = Gate()
    let calls = Mutex(0)

    init(_ inner: any DayOptimizing) { self.inner = inner }

    func optimize(day: LocalDate, seconds: Double, now: Date, clock: any TimeSource, actor: String) async throws -> PlanOptimizer.Outcome {
        calls.withLock { $0 += 1 }
        let gate = self.gate
        try await NIOThreadPool.singleton.runIfActive { gate.enterAndWait() }
        return try await inner.optimize(day: day, seconds: seconds, now: now, clock: clock, actor: actor)
    }
}

/// Answers "a route changed meanwhile" until told otherwise.
final class ContendedOptimizer: DayOptimizing {
    let writes = Atomic<Bool>(false)
    let calls = Mutex<[Date]>([])

    func optimize(day: LocalDate, seconds: Double, now: Date, clock: any TimeSource, actor: String) async throws -> PlanOptimizer.Outcome {
        calls.withLock { $0.append(now) }
        let measures = PlanMeasures(rides: 3, driving: 600, vansUsed: 1, busy: 1_800)
        return PlanOptimizer.Outcome(before: measures, after: measures, ridesChanged: 0, written: writes.load(ordering: .relaxed))
    }
}

@Suite("Background route improvement")
struct RouteImproverTests {
    /// A search budget of 0.5 s that is 4,000 iterations however busy the machine is.
    static func budget() -> SteppingClock { SteppingClock(iterations: 4_000, perBudget: 0.5) }

    static func settings(_ seconds: Double = 0.5) -> ImprovementSettings {
        var settings = ImprovementSettings()
        settings.seconds = seconds
        settings.quietPeriod = 0  // due at once: these tests are about what a run does
        return settings
    }

    /// An improver whose runs always write, with a 2 s quiet period and a 60 s longest delay, on a manual clock.
    static func timed() -> (RouteImprover, ContendedOptimizer, ManualClock) {
        let clock = ManualClock()
        let optimizer = ContendedOptimizer()
        optimizer.writes.store(true, ordering: .relaxed)
        var settings = ImprovementSettings()
        settings.quietPeriod = 2
        settings.maxDelay = 60
        return (
            RouteImprover(optimizer: optimizer, timeZone: TimeZone(identifier: "America/New_York")!, settings: settings, clock: clock),
            optimizer, clock
        )
    }

    @Test func aBurstOfBookingsIsImprovedOnceItIsQuietOrAtTheLongestDelay() async throws {
        let day = try LocalDate("2026-11-23")
        let (improver, optimizer, clock) = Self.timed()
        let first = clock.now
        // A booking a second: each signal starts the quiet period again.
        for _ in 0..<10 {
            improver.dayChanged(day)
            #expect(improver.nextDue == clock.now.addingTimeInterval(2))
            clock.advance(by: 1)
            #expect(await improver.runDue().isEmpty)
        }
        clock.advance(by: 1)
        #expect(await improver.runDue().map(\.settled) == [true])
        #expect(optimizer.calls.withLock { $0.count } == 1)
        // A steady stream never goes quiet: it still runs once the longest delay is up.
        let stream = clock.now
        var runs = 0
        while clock.now < stream.addingTimeInterval(61) {
            improver.dayChanged(day)
            clock.advance(by: 1)
            runs += await improver.runDue().count
        }
        #expect(runs == 1)
        #expect(optimizer.calls.withLock { $0 } == [first.addingTimeInterval(11), stream.addingTimeInterval(60)])
    }

    @Test func aWastefulDayIsImprovedInsideEveryPromiseAndNoRideAboutToStartMoves() async throws {
        let w = try await WastefulDay()
        let clock = ManualClock(w.now)
        let metrics = VandMetrics()
        // The budget in iterations, not in wall time: a loaded machine finds the same plan.
        let improver = RouteImprover(
            optimizer: PlanOptimizer(pool: w.f.db.pool, timeZone: w.f.zone), timeZone: w.f.zone,
            settings: Self.settings(), clock: clock, budgetClock: Self.budget(), metrics: metrics)
        let before = try await w.rows()
        w.expectConsistent(before)

        improver.hook.changed(around: w.f.monday(10, 20))
        #expect(improver.pendingDays == [w.day])
        let runs = await improver.runDue()

        #expect(runs.count == 1)
        let outcome = try #require(runs.first?.outcome)
        #expect(outcome.written && outcome.ridesChanged > 0)
        #expect(outcome.after.driving < outcome.before.driving)
        #expect(improver.pendingDays.isEmpty)
        let after = try await w.rows()
        // Nothing dropped: the same rides, all still holding a van with the same promises.
        #expect(after.map(\.id) == before.map(\.id))
        #expect(after.allSatisfy { $0.status == "approved" })
        for (old, new) in zip(before, after) {
            #expect(old.windowStart == new.windowStart && old.windowEnd == new.windowEnd && old.maxRide == new.maxRide)
        }
        w.expectConsistent(after)
        // The 09:00 rides are within the lock lead of 08:50: same van, same times.
        let lockBefore = w.now.addingTimeInterval(Scheduler(hours: .wheelsDefault(timeZone: w.f.zone)).lockLead)
        for old in before where old.pickupAt < lockBefore {
            let new = after.first { $0.id == old.id }!
            #expect(new.vanID == old.vanID && new.pickupAt == old.pickupAt && new.dropoffAt == old.dropoffAt)
        }
        #expect(before.contains { $0.pickupAt < lockBefore })
        // Less empty driving, counted from the stored stops.
        let (deadheadBefore, deadheadAfter) = (w.deadheadMinutes(before), w.deadheadMinutes(after))
        #expect(deadheadAfter < deadheadBefore - 20, "\(deadheadBefore) → \(deadheadAfter) minutes")
        #expect(outcome.ridesChanged == zip(before, after).filter { $0 != $1 }.count)
        // Counted, and recorded under the planner's name.
        #expect(metrics.render().contains(#"vand_improvement_runs_total{result="improved"} 1"#))
        let actor = try await w.f.db.pool.withConnection { conn in
            try conn.query("SELECT actor FROM audit_log WHERE action = 'plan.optimize'").first?.decode(String.self, at: 0)
        }
        #expect(actor == "planner")
        await w.f.db.close()
    }

    /// At 10:00 the 09:40 rides are past moving (Van 1 drops off in the east corner, Van 2 at SML),
    /// so the best plan gives Van 2 the rest of the SCL rides, Van 1's 10:20 among them. With Van
    /// 1's driver already at that pickup (an early *Arrived*, 10:05) it is under way: it stays on
    /// Van 1 at its times, and the run still improves the rest of the day (it does not fail its
    /// write on sql/0033).
    @Test func aRideUnderWayStaysOnItsVanWhileTheRestOfTheDayIsImproved() async throws {
        let w = try await WastefulDay()
        let before = try await w.rows()
        let now = w.f.monday(10)
        let tapped = try #require(before.first { $0.pickupAt == w.f.monday(10, 20) && $0.pickup == w.p1 })
        try await w.f.db.pool.withTransaction { conn in
            try conn.execute("INSERT INTO riders (net_id, password_hash, role) VALUES ('driver1', 'x', 'driver')")
            let shift = try conn.query(
                """
                INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES ('driver1', \(tapped.vanID), \(w.f.monday(8))) RETURNING id
                """
            ).first!.decode(Int64.self, at: 0)
            try conn.execute(
                """
                INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
                VALUES (\(UUID()), \(shift), \(tapped.id), 'pickup', 'arrived', \(w.f.monday(10, 5)))
                """)
        }
        // The budget in iterations: on the background thread a loaded machine (other suites in
        // parallel) could starve the search of its CPU until the wall-time cap, and it found nothing.
        let outcome = try await PlanOptimizer(pool: w.f.db.pool, timeZone: w.f.zone)
            .optimize(day: w.day, seconds: 0.5, now: now, clock: Self.budget(), actor: "planner")
        #expect(outcome.written && outcome.ridesChanged > 0)
        let after = try await w.rows()
        let kept = try #require(after.first { $0.id == tapped.id })
        #expect(kept.vanID == tapped.vanID, "moved from van \(tapped.vanID) to van \(kept.vanID)")
        #expect(kept.pickupAt == tapped.pickupAt && kept.dropoffAt == tapped.dropoffAt, "re-timed: \(tapped.pickupAt) → \(kept.pickupAt)")
        w.expectConsistent(after)
        #expect(w.deadheadMinutes(after) < w.deadheadMinutes(before))
        await w.f.db.close()
    }

    /// The same day as above, without a tap: the best plan moves Van 1's 10:20 SCL ride to Van 2.
    /// A dispatcher who put it on Van 1 (a move naming the van) pins it there: the run improves
    /// the rest of the day and leaves it on Van 1 (re-timed within its promise at most). Unpinned,
    /// the same run from the same plan moves it.
    @Test func aRideTheDispatcherPutOnAVanStaysOnItUntilUnpinned() async throws {
        func run(pinned: Bool) async throws -> (before: WastefulDay.Row, after: WastefulDay.Row, changed: Int) {
            let w = try await WastefulDay()
            let ride = try #require(try await w.rows().first { $0.pickupAt == w.f.monday(10, 20) && $0.pickup == w.p1 })
            let dispatch = DispatchService(pool: w.f.db.pool, timeZone: w.f.zone)
            if pinned {
                _ = try await dispatch.move(ride.id.uuidString, at: nil, van: "Van \(ride.vanID)", actor: "dee", now: w.f.monday(8))
                let by = try await w.f.db.pool.withConnection {
                    try $0.query("SELECT van_pinned_by FROM rides WHERE id = \(ride.id)").first!.decode(String?.self, at: 0)
                }
                #expect(by == "dee")
            }
            let before = try #require(try await w.rows().first { $0.id == ride.id })
            let outcome = try await PlanOptimizer(pool: w.f.db.pool, timeZone: w.f.zone)
                .optimize(day: w.day, seconds: 0.5, now: w.f.monday(10), clock: Self.budget(), actor: "planner")
            let rows = try await w.rows()
            w.expectConsistent(rows)
            if pinned {
                #expect(try await dispatch.unpin(ride.id.uuidString, actor: "dee", now: w.f.monday(10)))
                #expect(try await dispatch.unpin(ride.id.uuidString, actor: "dee", now: w.f.monday(10)) == false, "unpinned once")
                let audited = try await w.f.db.pool.withConnection {
                    try $0.query("SELECT count(*) FROM audit_log WHERE action = 'ride.unpin' AND actor = 'dee'").first!.decode(Int.self, at: 0)
                }
                #expect(audited == 1)
            }
            await w.f.db.close()
            return (before, try #require(rows.first { $0.id == ride.id }), outcome.ridesChanged)
        }
        let free = try await run(pinned: false)
        #expect(free.after.vanID != free.before.vanID, "the control: unpinned, the run moves it")
        let pinned = try await run(pinned: true)
        #expect(pinned.changed > 0, "the rest of the day is improved")
        #expect(pinned.after.vanID == pinned.before.vanID, "moved from van \(pinned.before.vanID) to van \(pinned.after.vanID)")
        #expect(pinned.after.windowStart == pinned.before.windowStart && pinned.after.windowEnd == pinned.before.windowEnd)
    }

    @Test func twentySignalsDuringARunLeadToExactlyOneMoreRun() async throws {
        let w = try await WastefulDay()
        let gated = GatedOptimizer(PlanOptimizer(pool: w.f.db.pool, timeZone: w.f.zone))
        let improver = RouteImprover(optimizer: gated, timeZone: w.f.zone, settings: Self.settings(0.2), clock: ManualClock(w.now))
        improver.dayChanged(w.day)
        let first = Task { await improver.runDue() }
        await gated.gate.waitUntilEntered()
        // The day is being run, so it is no longer pending; 20 bookings on it make it pending once.
        #expect(improver.pendingDays.isEmpty)
        for _ in 0..<20 { improver.dayChanged(w.day) }
        #expect(improver.pendingDays == [w.day])
        gated.gate.openUp()
        #expect(await first.value.count == 1)
        #expect(gated.calls.withLock { $0 } == 1)
        let second = await improver.runDue()
        #expect(second.map(\.day) == [w.day])
        #expect(await improver.runDue().isEmpty)
        #expect(gated.calls.withLock { $0 } == 2)
        #expect(improver.pendingDays.isEmpty)
        await w.f.db.close()
    }

    /// Bookings on other days hold a quiet day back: its run waits for a lull, or its longest delay.
    @Test func bookingsOnOtherDaysHoldADayBackUntilALullOrItsLongestDelay() async throws {
        let quietDay = try LocalDate("2026-11-23"), busyDay = try LocalDate("2026-11-24")
        let (improver, optimizer, clock) = Self.timed()
        let first = clock.now
        improver.dayChanged(quietDay)
        // A booking a second on the other day: neither day runs (the quiet one waits for the lull) …
        for _ in 0..<10 {
            clock.advance(by: 1)
            improver.dayChanged(busyDay)
            #expect(await improver.runDue().isEmpty)
        }
        // … then both run once the bookings pause for the quiet period.
        clock.advance(by: 2)
        #expect(Set(await improver.runDue().map(\.day)) == [quietDay, busyDay])
        // A steady stream on the other day never pauses: the quiet day still runs at its longest delay.
        let stream = clock.now
        improver.dayChanged(quietDay)
        var ran: [Date] = []
        while clock.now < stream.addingTimeInterval(61) {
            clock.advance(by: 1)
            improver.dayChanged(busyDay)
            for run in await improver.runDue() where run.day == quietDay { ran.append(clock.now) }
        }
        #expect(ran == [stream.addingTimeInterval(60)])
        #expect(optimizer.calls.withLock { $0.first } == first.addingTimeInterval(12))
    }

    @Test func aRunThatCouldNotWriteIsTriedAgainAfterTheRetryDelayOrTheNextSignal() async throws {
        let day = try LocalDate("2026-11-23")
        let clock = ManualClock()
        let optimizer = ContendedOptimizer()
        let settings = Self.settings()
        let improver = RouteImprover(optimizer: optimizer, timeZone: TimeZone(identifier: "America/New_York")!, settings: settings, clock: clock)
        improver.dayChanged(day)
        #expect(await improver.runDue().map(\.settled) == [false])
        // Still pending, but not before the delay.
        #expect(improver.pendingDays == [day])
        #expect(improver.nextDue == clock.now.addingTimeInterval(settings.retryDelay))
        #expect(await improver.runDue().isEmpty)
        clock.advance(by: settings.retryDelay - 1)
        #expect(await improver.runDue().isEmpty)
        // A booking on the day makes it due at once.
        improver.dayChanged(day)
        #expect(await improver.runDue().count == 1)
        optimizer.writes.store(true, ordering: .relaxed)
        clock.advance(by: settings.retryDelay)
        #expect(await improver.runDue().map(\.settled) == [true])
        #expect(improver.pendingDays.isEmpty)
        #expect(optimizer.calls.withLock { $0.count } == 3)
    }

    @Test func offMeansNoSignalIsKept() async throws {
        var settings = ImprovementSettings()
        settings.seconds = 0
        let optimizer = ContendedOptimizer()
        let improver = RouteImprover(
            optimizer: optimizer, timeZone: TimeZone(identifier: "America/New_York")!, settings: settings, clock: ManualClock())
        improver.dayChanged(try LocalDate("2026-11-23"))
        #expect(improver.pendingDays.isEmpty)
        #expect(await improver.runDue().isEmpty)
        #expect(try ImprovementSettings.fromEnvironment(["VAND_IMPROVE_SECONDS": "0"]).enabled == false)
        #expect(try ImprovementSettings.fromEnvironment([:]).seconds == 2)
        #expect(throws: SettingError.self) { try ImprovementSettings.fromEnvironment(["VAND_IMPROVE_SECONDS": "-1"]) }
    }

    @Test func theFrozenHorizonIsASettingInMinutes() throws {
        #expect(try ImprovementSettings.fromEnvironment([:]).roadFrozen == RoadReplanner.defaultFrozen)
        #expect(RoadReplanner.defaultFrozen == 20 * 60)
        #expect(try ImprovementSettings.fromEnvironment(["VAND_REPLAN_FROZEN": "15"]).roadFrozen == 15 * 60)
        #expect(try ImprovementSettings.fromEnvironment(["VAND_REPLAN_FROZEN": "0"]).roadFrozen == 0)
        #expect(throws: SettingError.self) { try ImprovementSettings.fromEnvironment(["VAND_REPLAN_FROZEN": "-5"]) }
        #expect(throws: SettingError.self) { try ImprovementSettings.fromEnvironment(["VAND_REPLAN_FROZEN": "soon"]) }
    }

    @Test func bookingsDuringABackgroundRunAllSucceedAndTheDatabaseEndsConsistent() async throws {
        let w = try await WastefulDay()
        let clock = ManualClock(w.now)
        // The gate only marks the moment the run has taken the day; it opens at once.
        let gated = GatedOptimizer(PlanOptimizer(pool: w.f.db.pool, timeZone: w.f.zone, background: true))
        let improver = RouteImprover(optimizer: gated, timeZone: w.f.zone, settings: Self.settings(1), clock: clock)
        let booking = BookingService(pool: w.f.db.pool, timeZone: w.f.zone, routeChanges: improver.hook)
        let before = try await w.rows()
        improver.dayChanged(w.day)
        let background = Task { await improver.runDue() }
        await gated.gate.waitUntilEntered()
        gated.gate.openUp()
        // 24 riders book at once, while the improver searches and writes.
        let outcomes = try await withThrowingTaskGroup(of: BookingOutcome.self) { group in
            for rider in 20..<44 {
                let minute = 9 * 60 + 30 + (rider - 20) * 6
                group.addTask { try await booking.book(w.f.request(rider, at: w.f.monday(minute / 60, minute % 60)), now: w.now) }
            }
            return try await group.reduce(into: [BookingOutcome]()) { $0.append($1) }
        }
        let firstRuns = await background.value
        let booked = outcomes.compactMap { if case .booked(let ride) = $0 { ride } else { nil } }
        #expect(booked.count > 12, "\(booked.count) of 24 booked")
        #expect(firstRuns.count == 1 && firstRuns.allSatisfy { $0.failure == nil })
        // The bookings named the day again; run until a run settles (each run either writes or
        // finds a route changed and stays pending).
        #expect(improver.pendingDays == [w.day])
        var settled = false
        for _ in 0..<4 where !settled {
            clock.advance(by: 60)
            settled = await improver.runDue().contains { $0.settled }
        }
        #expect(settled)
        let after = try await w.rows()
        #expect(after.count == before.count + booked.count)
        #expect(Set(before.map(\.id)).isSubset(of: Set(after.map(\.id))))
        #expect(after.allSatisfy { $0.status == "approved" || $0.status == "pending" })
        w.expectConsistent(after)
        // The database's own check, on every ride: touch each so the route trigger runs at commit.
        try await w.f.db.pool.withTransaction { conn in
            try conn.execute("UPDATE rides SET pickup_at = pickup_at, van_id = van_id")
        }
        await w.f.db.close()
    }
}
