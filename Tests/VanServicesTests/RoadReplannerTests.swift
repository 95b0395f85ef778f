import Foundation
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import VanServices

/// `RoadReplanner` on a real database: van 1 stands at SCL at 9:42 with its 9:00 rider still
/// aboard (she rides to SML), so it cannot reach its 9:40 ride three kilometres east before that
/// window closes at 9:55; van 2 stands at that pickup with nothing to do. The road, as the
/// fixtures write it (shifts, a boarded tap, fresh positions), is read back from the tables.
@Suite struct RoadReplannerTests {
    let f: BookingFixture
    let q1 = try! Coordinate(latitude: 41.3100, longitude: -72.8900)
    let q2 = try! Coordinate(latitude: 41.3140, longitude: -72.8850)
    let aboard = UUID(), late = UUID()

    init() async throws {
        f = try await BookingFixture(vans: [("Van 1", 8, 1), ("Van 2", 8, 1)], riders: 4, oneRiderAtATime: false)
        let estimator = TripEstimator()
        let rides: [(id: UUID, rider: String, from: Coordinate, to: Coordinate, at: Date)] = [
            (aboard, "rider0", f.scl, f.sml, f.monday(9, 0)), (late, "rider1", q1, q2, f.monday(9, 40)),
        ]
        let requestedAt = f.now
        try await f.db.pool.withTransaction { conn in
            for ride in rides {
                let dropoffAt = ride.at.addingTimeInterval(
                    estimator.tripDuration(from: ride.from, to: ride.to, wheelchair: false) - estimator.alighting)
                try conn.execute(
                    """
                    INSERT INTO rides (id, net_id, kind, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon, requested_at, pickup_at,
                                       estimated_dropoff_at, status, van_id, promise, window_start, window_end, max_ride_seconds)
                    VALUES (\(ride.id), \(ride.rider), 'scheduled', \(ride.from.latitude), \(ride.from.longitude),
                            \(ride.to.latitude), \(ride.to.longitude), \(requestedAt), \(ride.at), \(dropoffAt), 'approved',
                            (SELECT id FROM vans WHERE name = 'Van 1'), 'pickup', \(ride.at), \(ride.at.addingTimeInterval(900)), 3600)
                    """)
            }
        }
    }

    /// Drivers on shift on `vans`, van 1 at SCL with the 9:00 rider boarded, van 2 at the 9:40 pickup.
    func onTheRoad(vans: [String]) async throws {
        let (scl, q1, aboard) = (f.scl, q1, aboard)
        let started = f.monday(8, 30), boarded = f.monday(9, 30), seen = f.monday(9, 41)
        try await f.db.pool.withTransaction { conn in
            for (index, van) in vans.enumerated() {
                try conn.execute("INSERT INTO riders (net_id, password_hash, role) VALUES (\("driver\(index)"), 'x', 'driver')")
                try conn.execute(
                    """
                    INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES (\("driver\(index)"), (SELECT id FROM vans WHERE name = \(van)), \(started))
                    """)
            }
            if vans.contains("Van 1") {
                try conn.execute(
                    """
                    INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
                    SELECT gen_random_uuid(), s.id, \(aboard), 'pickup', a, \(boarded)
                    FROM shifts s, unnest(ARRAY['arrived', 'boarded']) a WHERE s.van_id = (SELECT id FROM vans WHERE name = 'Van 1')
                    """)
            }
            for (van, place) in [("Van 1", scl), ("Van 2", q1)] {
                try conn.execute(
                    """
                    INSERT INTO van_positions (van_id, at, lat, lon, source)
                    VALUES ((SELECT id FROM vans WHERE name = \(van)), \(seen), \(place.latitude), \(place.longitude), 'driver')
                    """)
            }
        }
    }

    func vanOf(_ ride: UUID) async throws -> String {
        try await f.db.pool.withConnection { conn in
            try conn.query("SELECT v.name FROM rides r JOIN vans v ON v.id = r.van_id WHERE r.id = \(ride)" as SQLQuery) {
                try $0.decode(String.self, at: 0)
            }[0]
        }
    }

    @Test func aLateRideMovesToTheVanOnShiftThatKeepsItsPromise() async throws {
        try await onTheRoad(vans: ["Van 1", "Van 2"])
        let replanner = RoadReplanner(pool: f.db.pool, timeZone: f.zone)
        let pickupBefore = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT pickup_at FROM rides WHERE id = \(aboard)" as SQLQuery) { try $0.decode(Date.self, at: 0) }[0]
        }
        let outcome = try await replanner.replan(day: try LocalDate("2026-11-23"), now: f.monday(9, 42), actor: "planner")
        #expect(outcome.written && outcome.vans == 2)
        #expect(outcome.lateAsPlanned.contains(late))
        #expect(outcome.moved == [late])
        #expect(try await vanOf(late) == "Van 2")
        #expect(try await vanOf(aboard) == "Van 1", "a rider aboard stays on her van")
        let (pickup, window, events) = try await f.db.pool.withConnection { conn in
            (
                try conn.query("SELECT pickup_at FROM rides WHERE id = \(aboard)" as SQLQuery) { try $0.decode(Date.self, at: 0) }[0],
                try conn.query("SELECT pickup_at, window_start, window_end FROM rides WHERE id = \(late)" as SQLQuery) {
                    (try $0.decode(Date.self, at: 0), try $0.decode(Date.self, at: 1), try $0.decode(Date.self, at: 2))
                }[0],
                try conn.query("SELECT kind FROM ride_events WHERE ride_id = \(late) ORDER BY id" as SQLQuery) { try $0.decode(String.self, at: 0) }
            )
        }
        #expect(pickup == pickupBefore, "a done pickup keeps its planned time")
        #expect(window.0 >= window.1 && window.0 <= window.2, "the moved ride is planned inside its promise")
        #expect(events.last == "reassigned", "the dispatcher hears of the move")
        // From the road as it now stands, nothing is late: a second run changes nothing.
        let again = try await replanner.replan(day: try LocalDate("2026-11-23"), now: f.monday(9, 42), actor: "planner")
        #expect(again.ridesChanged == 0 && again.lateAsPlanned.isEmpty)
    }

    /// The background planner: the road signals, the day in progress falls due after the quiet
    /// period (the injected clock), and its run re-plans from the road after the improvement.
    @Test func theBackgroundPlannerReplansTheDayInProgressWhenTheRoadMoves() async throws {
        try await onTheRoad(vans: ["Van 1", "Van 2"])
        let clock = ManualClock(f.monday(9, 42))
        var settings = ImprovementSettings()
        settings.seconds = 0.05
        let improver = RouteImprover(
            optimizer: PlanOptimizer(pool: f.db.pool, timeZone: f.zone), timeZone: f.zone, settings: settings,
            clock: clock, road: RoadReplanner(pool: f.db.pool, timeZone: f.zone))
        improver.roadChanged()
        #expect(improver.pendingDays == [try LocalDate("2026-11-23")])
        #expect(await improver.runDue().isEmpty, "not before the quiet period")
        clock.advance(by: settings.quietPeriod)
        let runs = await improver.runDue()
        #expect(runs.count == 1 && runs[0].settled)
        #expect(runs.first?.road?.moved == [late])
        #expect(try await vanOf(late) == "Van 2")
        // The loop's own tick re-plans from the road alone: nothing is late any more.
        let tick = await improver.replanRoad()
        #expect(tick?.written == true && tick?.ridesChanged == 0)
    }

    /// The loop re-plans from the road every interval; a van running late brings it forward to
    /// the late gap after the last re-plan, once.
    @Test func aVanRunningLateBringsTheRoadReplanForward() async throws {
        try await onTheRoad(vans: ["Van 1", "Van 2"])
        let clock = ManualClock(f.monday(9, 42))
        var settings = ImprovementSettings()
        settings.seconds = 0.05
        let improver = RouteImprover(
            optimizer: PlanOptimizer(pool: f.db.pool, timeZone: f.zone), timeZone: f.zone, settings: settings,
            clock: clock, road: RoadReplanner(pool: f.db.pool, timeZone: f.zone))
        #expect(try #require(improver.roadReplanDue) <= clock.now, "never re-planned: due at once")
        let first = await improver.replanRoad()
        #expect(first?.moved == [late])
        #expect(improver.roadReplanDue == clock.now.addingTimeInterval(settings.roadInterval))
        improver.roadRunsLate()
        #expect(improver.roadReplanDue == clock.now.addingTimeInterval(settings.lateGap))
        clock.advance(by: settings.lateGap)
        #expect(try #require(improver.roadReplanDue) <= clock.now)
        _ = await improver.replanRoad()
        #expect(improver.roadReplanDue == clock.now.addingTimeInterval(settings.roadInterval), "the late signal is used up")
        // Off without road re-planning.
        let plain = RouteImprover(optimizer: PlanOptimizer(pool: f.db.pool, timeZone: f.zone), timeZone: f.zone, settings: settings, clock: clock)
        plain.roadRunsLate()
        #expect(plain.roadReplanDue == nil)
    }

    @Test func aVanWithoutADriverTakesNothing() async throws {
        try await onTheRoad(vans: ["Van 1"])
        let outcome = try await RoadReplanner(pool: f.db.pool, timeZone: f.zone)
            .replan(day: try LocalDate("2026-11-23"), now: f.monday(9, 42), actor: "planner")
        #expect(outcome.vans == 1 && outcome.moved.isEmpty)
        #expect(outcome.unkept.contains(late), "no van on shift can keep the 9:40 ride: its plan stays, and the ETA shows it late")
        #expect(try await vanOf(late) == "Van 1")
    }
}
