import Foundation
import Synchronization
import Testing
import VanDomain
import VanScheduler
import VanTestSupport
@testable import VanServices
import VanPostgres

/// ETAs read from the road on a real PostgreSQL, with a manual clock; expected times come from the
/// travel model (``TripEstimator``), not from the engine.
@Suite("ETAs from the road: fix, visibility, late alerts once, the reminder from the ETA")
struct ETAServiceTests {
    @Test func aVanWithoutAnOpenShiftIsNotOnTheRoad() async throws {
        let f = try await ETAFixture()
        try await f.ride(pickupIn: 20)
        try await f.position(f.davenport, age: 5)
        #expect(try await f.service.van(1, now: f.now) == nil)
        let shift = try await f.shift()
        #expect(try await f.service.van(1, now: f.now) != nil)
        // A shift with neither a fresh position nor a tap today: not on the road either.
        try await f.position(f.davenport, age: 121)
        #expect(try await f.service.van(1, now: f.now) == nil)
        _ = shift
        await f.db.close()
    }

    @Test func aFreshPositionOrElseTheLastTap() async throws {
        let f = try await ETAFixture()
        let shift = try await f.shift()
        // Aboard since 100 s ago at SCL; her drop-off at Davenport remains.
        let ride = try await f.ride(pickupIn: -10)
        try await f.tap(shift, ride: ride, "pickup", "arrived", age: 200)
        try await f.tap(shift, ride: ride, "pickup", "boarded", age: 100)
        let far = f.north(of: f.scl, meters: 5_000)
        let toDavenport = f.estimator.deadhead(from: f.scl, to: f.davenport)

        // A stale position (200 s old) counts as unknown: the van left SCL at the tap.
        try await f.position(far, age: 200)
        var etas = try #require(try await f.service.van(1, now: f.now))
        #expect(etas.source == .tap)
        #expect(etas.estimates.map(\.stop.kind) == [.dropoff])
        #expect(etas.estimates[0].arrival == f.now.addingTimeInterval(-100 + toDavenport))

        // A fresh position newer than the tap: the van drives from there.
        let near = f.north(of: f.scl, meters: 1_000)
        try await f.position(near, age: 10)
        etas = try #require(try await f.service.van(1, now: f.now))
        #expect(etas.source == .position)
        #expect(etas.estimates[0].arrival == f.now.addingTimeInterval(-10 + f.estimator.deadhead(from: near, to: f.davenport)))

        // A fresh position older than the tap: the tap is the better fix.
        try await f.position(far, age: 110)
        etas = try #require(try await f.service.van(1, now: f.now))
        #expect(etas.source == .tap)

        // Ten minutes on with nothing new, the van has not reached Davenport: it is due no sooner than now.
        f.clock.advance(by: 600)
        etas = try #require(try await f.service.van(1, now: f.now))
        #expect(etas.estimates[0].arrival == f.now)
        await f.db.close()
    }

    @Test func aRiderSeesHerETAFromTheLeadUntilSheIsOnBoard() async throws {
        let f = try await ETAFixture()
        let shift = try await f.shift()
        let first = try await f.ride(rider: "bob2", pickupIn: 15)
        let ann = try await f.ride(pickupIn: 40)
        let pending = try await f.ride(rider: "bob2", pickupIn: 41, status: "pending")
        try await f.position(f.davenport)
        let lead: TimeInterval = 30 * 60
        // 40 minutes before her window: nothing yet; Bob's (15 minutes) shows.
        var etas = try #require(try await f.service.van(1, now: f.now))
        #expect(etas.rider(ann, lead: lead) == nil)
        #expect(etas.rider(first, lead: lead) != nil)

        f.clock.advance(by: 11 * 60)
        try await f.position(f.davenport)
        etas = try #require(try await f.service.van(1, now: f.now))
        let shown = try #require(etas.rider(ann, lead: lead))
        // Bob's pickup and drop-off come before hers.
        #expect(shown.stopsBefore == 2)
        #expect(!shown.vanHere)
        #expect(shown.lateMinutes == 0)
        // A pending ride's rider sees nothing.
        #expect(etas.rider(pending, lead: lead) == nil)
        #expect(Set(etas.visible(lead: lead).map(\.netID)) == ["ann1", "bob2"])

        // The van at her pickup: "the van is here".
        try await f.tap(shift, ride: first, "pickup", "arrived", age: 0)
        try await f.tap(shift, ride: first, "pickup", "boarded", age: 0)
        try await f.tap(shift, ride: first, "dropoff", "arrived", age: 0)
        try await f.tap(shift, ride: first, "dropoff", "dropped_off", age: 0)
        try await f.tap(shift, ride: ann, "pickup", "arrived", age: 0)
        etas = try #require(try await f.service.van(1, now: f.now))
        let here = try #require(etas.rider(ann, lead: lead))
        #expect(here.vanHere)
        #expect(here.sentence == "The van is here.")
        #expect(here.stopsBefore == 0)
        // On board: nothing more.
        try await f.tap(shift, ride: ann, "pickup", "boarded", age: 0)
        etas = try #require(try await f.service.van(1, now: f.now))
        #expect(etas.rider(ann, lead: lead) == nil)
        await f.db.close()
    }

    @Test func lateIsRaisedOnceHoweverManyNodesSeeIt() async throws {
        let f = try await ETAFixture()
        try await f.shift()
        // Promised a pickup by 07:20; the van is 10 km away: 10 km × 1.3 ÷ 20 km/h = 39 min, 07:39.
        let ride = try await f.ride(pickupIn: 5)
        try await f.position(f.north(of: f.scl, meters: 10_000))
        let feeds = (0..<12).map { _ in f.feed() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for feed in feeds { group.addTask { try await feed.refresh(van: 1) } }
            try await group.waitForAll()
        }
        for feed in feeds.prefix(3) { try await feed.refresh(van: 1) }
        #expect(try await f.events.count("SELECT count(*) FROM ride_alerts WHERE kind = 'late'") == 1)
        #expect(try await f.events.kinds(ride).filter { $0 == "late" }.count == 1)
        #expect(
            try await f.events.count(
                """
                SELECT count(*) FROM deliveries d JOIN ride_events e ON e.id = d.event_id WHERE e.kind = 'late'
                """) == 3)
        let alert = try #require(try await LateAlerts(pool: f.db.pool).raised(since: f.now.addingTimeInterval(-1)).first)
        #expect(alert.rideID == ride)
        #expect(alert.eta == f.now.addingTimeInterval(2_340))
        #expect(alert.stop == "pickup")
        try await f.events.loop().runOnce(now: f.now)
        #expect(
            try await f.events.inbox("ann1").contains(
                "Your van is running late: it now expects to reach you at SCL at about 7:39 AM (promised by 7:20 AM)."))
        await f.db.close()
    }

    /// Each working-out that finds the van late tells the planner (it re-plans from the road at
    /// once); a van on time tells it nothing.
    @Test func aLateVanTellsThePlannerEachTimeItIsWorkedOut() async throws {
        let f = try await ETAFixture()
        try await f.shift()
        try await f.shift(van: 2, driver: "drv2")
        try await f.ride(pickupIn: 5)
        try await f.ride(rider: "bob2", pickupIn: 5, van: 2)
        try await f.position(f.north(of: f.scl, meters: 10_000))  // van 1: 39 minutes away, promised within 20
        try await f.position(f.davenport, van: 2)
        let told = Atomic<Int>(0)
        let feed = f.feed(routeChanges: RouteChangeHook({ _ in }, late: { told.add(1, ordering: .relaxed) }))
        try await feed.refresh(van: 2)
        #expect(told.load(ordering: .relaxed) == 0)
        try await feed.refresh(van: 1)
        try await feed.refresh(van: 1)
        #expect(told.load(ordering: .relaxed) == 2, "raised once, but the planner is told on every working-out that finds it late")
        await f.db.close()
    }

    /// Re-planning moves her ride to another van: she is shown that van's ETA, and the old van,
    /// worked out after, does not blank it.
    @Test func aRideMovedToAnotherVanKeepsShowingAnETA() async throws {
        let f = try await ETAFixture()
        try await f.shift()
        try await f.shift(van: 2, driver: "drv2")
        let ride = try await f.ride(pickupIn: 10)
        try await f.position(f.north(of: f.scl, meters: 3_000))
        try await f.position(f.davenport, van: 2)
        let feed = f.feed()
        var updates = feed.updates(for: "ann1").makeAsyncIterator()
        try await feed.refresh(van: 1)
        #expect(await updates.next()?.eta?.vanID == 1)
        try await f.events.sql("UPDATE rides SET van_id = 2 WHERE id = \(ride)")
        try await feed.refresh(van: 2)
        try await feed.refresh(van: 1)
        try await feed.refresh(van: 2)
        let next = [await updates.next(), await updates.next()]
        #expect(next.map { $0?.eta?.vanID } == [2, 2], "the new van's ETA, never nothing in between")
        await f.db.close()
    }

    @Test func aRideOnTimeRaisesNothing() async throws {
        let f = try await ETAFixture()
        try await f.shift()
        try await f.ride(pickupIn: 5)
        try await f.position(f.davenport)
        try await f.feed().refresh(van: 1)
        #expect(try await f.events.count("SELECT count(*) FROM ride_alerts") == 0)
        await f.db.close()
    }

    @Test func theReminderFiresFromTheETAWhileTheVanIsOnTheRoad() async throws {
        let f = try await ETAFixture()
        try await f.shift()
        // Planned 10 minutes from now: the plan's reminder would be due already.
        let ride = try await f.ride(pickupIn: 10)
        // Off the road (van 2 has no shift), a ride is reminded from the plan as before.
        let offRoad = try await f.ride(rider: "bob2", pickupIn: 10, van: 2)
        // 6,410 m away: 1,500 s, 25 minutes.
        try await f.position(f.north(of: f.scl, meters: 6_410))
        let loop = f.events.loop()
        let pass = try await loop.runOnce(now: f.now)
        #expect(pass.reminded == 1)
        #expect(try await f.events.kinds(offRoad).contains("reminder"))
        // Nothing waits for a reminder from the plan: the loop does not wake for this ride.
        #expect(try await Reminders(pool: f.db.pool, lead: 15 * 60, timeZone: f.events.zone).nextDue(after: f.now) == nil)
        let feed = f.feed()
        try await feed.refresh(van: 1)
        #expect(try await !f.events.kinds(ride).contains("reminder"))

        // 2,564 m away: 600 s. The ETA is within 15 minutes: reminded, once, however many nodes.
        f.clock.advance(by: 60)
        try await f.position(f.north(of: f.scl, meters: 2_564))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for feed in (0..<8).map({ _ in f.feed() }) { group.addTask { try await feed.refresh(van: 1) } }
            try await group.waitForAll()
        }
        try await feed.refresh(van: 1)
        #expect(try await f.events.kinds(ride).filter { $0 == "reminder" }.count == 1)
        #expect(try await loop.runOnce(now: f.now).reminded == 0)
        #expect(try await f.events.inbox("ann1") == ["Your van arrives in about 10 minutes at SCL."])
        await f.db.close()
    }
}
