import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

/// Shared rides on Monday 2026-11-23 (EST). Known ends: SSS to Davenport, about 2.4 minutes of
/// driving; boarding 2 min (5 with a wheelchair), alighting 1 min (3).
@Suite struct SchedulerTests {
    let scheduler = Fixture.scheduler
    /// Promises are instants (no window), to test the van's limits alone.
    let exact = {
        var s = Fixture.scheduler; s.windowWidth = 0; return s
    }()
    let monday = { (hour: Int, minute: Int) in local(2026, 11, 23, hour, minute) }

    func trip(_ time: Date, wheelchair: Bool = false, arriveBy: Bool = false, notBefore: Date? = nil) -> RideRequest {
        RideRequest(
            pickup: Fixture.sss, dropoff: Fixture.davenport, wheelchair: wheelchair, pickupAt: time,
            promise: arriveBy ? .arriveBy : .pickup, notBefore: notBefore)
    }

    /// A booked ride SSS → Davenport planned as `scheduler` plans it alone on `van`.
    func booked(_ n: Int, van: Van, at time: Date, wheelchair: Bool = false, with scheduler: Scheduler) -> BookedRide {
        let placed = scheduler.check(trip(time, wheelchair: wheelchair), vans: [van], rides: []).assignment!
        return BookedRide(
            id: Fixture.uuid(n), vanID: van.id, pickupAt: placed.pickupAt, dropoffAt: placed.dropoffAt,
            pickup: Fixture.sss, dropoff: Fixture.davenport, wheelchair: wheelchair,
            promise: placed.promise, maxRideTime: placed.maxRideTime)
    }

    @Test func aFreeVanPicksUpAtTheStartOfThePromisedWindow() throws {
        let placed = try #require(scheduler.check(trip(monday(16, 30)), vans: [Fixture.van(1)], rides: []).assignment)
        #expect(placed.vanID == 1 && placed.pickupAt == monday(16, 30))
        #expect(placed.promise == RidePromise(kind: .pickup, window: DateInterval(start: monday(16, 30), end: monday(16, 45))))
        #expect(placed.dropoffAt > placed.pickupAt && placed.dropoffAt.timeIntervalSince(placed.pickupAt) <= placed.maxRideTime)
        // The limit: the longer of twice the direct ride and the direct ride plus 15 minutes.
        let direct = scheduler.directRide(for: trip(monday(16, 30)))
        #expect(placed.maxRideTime == max(2 * direct, direct + 900).rounded(.up))
    }

    @Test func twoRidersShareOneVanAtTheSameTime() throws {
        let van = Fixture.van(1)
        let first = booked(1, van: van, at: monday(16, 30), with: scheduler)
        let second = try #require(scheduler.check(trip(monday(16, 30)), vans: [van], rides: [first]).assignment)
        // One boards right after the other (boarding takes two minutes), and both ride together.
        let firstNow = second.replanned[first.id] ?? PlannedStops(pickupAt: first.pickupAt, dropoffAt: first.dropoffAt)
        #expect(second.vanID == 1)
        #expect(Set([second.pickupAt, firstNow.pickupAt]) == [monday(16, 30), monday(16, 32)])
        #expect(second.pickupAt < firstNow.dropoffAt && firstNow.pickupAt < second.dropoffAt)
        #expect(first.promise.isKept(pickupAt: firstNow.pickupAt, dropoffAt: firstNow.dropoffAt))
        #expect(firstNow.dropoffAt.timeIntervalSince(firstNow.pickupAt) <= first.maxRideTime)
        #expect(second.addedDriving == 0)
    }

    @Test func seatsAreALimit() {
        let small = try! Van(id: 1, name: "Van 1", seats: 1, wheelchairPositions: 0)
        let first = booked(1, van: small, at: monday(16, 30), with: exact)
        #expect(exact.check(trip(monday(16, 30)), vans: [small], rides: [first]).reason == .occupied)
        // With a window, the second rider is picked up once the first is off.
        let later = scheduler.check(trip(monday(16, 30)), vans: [small], rides: [first]).assignment
        #expect(later.map { $0.pickupAt > first.dropoffAt } == true)
        // Companions take seats too.
        let roomy = try! Van(id: 2, name: "Van 2", seats: 3, wheelchairPositions: 0)
        var party = trip(monday(16, 30))
        party.companions = 2
        #expect(exact.check(party, vans: [roomy], rides: []).isFeasible)
        #expect(exact.check(party, vans: [roomy], rides: [booked(2, van: roomy, at: monday(16, 30), with: exact)]).reason == .occupied)
    }

    @Test func wheelchairPositionsAreALimit() throws {
        let van = Fixture.van(1, wheelchair: 1)
        let first = booked(1, van: van, at: monday(16, 30), wheelchair: true, with: scheduler)
        // A second wheelchair rider waits until the first is off the van; an ambulatory one rides along.
        func aboardTogether(_ placed: Assignment) -> Bool {
            let other = placed.replanned[first.id] ?? PlannedStops(pickupAt: first.pickupAt, dropoffAt: first.dropoffAt)
            return placed.pickupAt < other.dropoffAt && other.pickupAt < placed.dropoffAt
        }
        let chair = try #require(scheduler.check(trip(monday(16, 30), wheelchair: true), vans: [van], rides: [first]).assignment)
        #expect(!aboardTogether(chair))
        let walker = try #require(scheduler.check(trip(monday(16, 30)), vans: [van], rides: [first]).assignment)
        #expect(aboardTogether(walker))
        let fixed = booked(2, van: van, at: monday(16, 30), wheelchair: true, with: exact)
        #expect(exact.check(trip(monday(16, 31), wheelchair: true), vans: [van], rides: [fixed]).reason == .occupied)
    }

    @Test func arriveByPromisesTheDropOff() throws {
        let placed = try #require(scheduler.check(trip(monday(17, 0), arriveBy: true), vans: [Fixture.van(1)], rides: []).assignment)
        #expect(placed.promise.kind == .arriveBy)
        #expect(placed.promise.window == DateInterval(start: monday(16, 45), end: monday(17, 0)))
        #expect(placed.promise.window.contains(placed.dropoffAt))
        #expect(placed.pickupAt < placed.dropoffAt)
    }

    @Test func ridesAboutToStartAreNotMoved() throws {
        let van = Fixture.van(1)
        let first = booked(1, van: van, at: monday(16, 30), with: scheduler)
        // At 16:20 the first ride starts within the lock lead (15 min): it keeps its times.
        let placed = try #require(scheduler.check(trip(monday(16, 30), notBefore: monday(16, 20)), vans: [van], rides: [first]).assignment)
        #expect(placed.replanned[first.id] == nil)
    }

    /// Issue 32: within the lock lead a ride was only ever added after a van's last stop. A van
    /// whose only stop is at 16:40 (pinned: it starts within 15 minutes of 16:28) takes a ride asked
    /// for exactly 16:30 (before the pinned pickup; here the two share the van to Davenport), and
    /// its pinned ride keeps its times. Before, the only place was after 16:40's drop-off: refused.
    @Test func aRideSoonFitsBeforeAVansPinnedStop() throws {
        let van = Fixture.van(1)
        let pinned = booked(1, van: van, at: monday(16, 40), with: exact)
        let now = monday(16, 28)
        let placed = try #require(exact.check(trip(monday(16, 30), notBefore: now), vans: [van], rides: [pinned]).assignment)
        #expect(placed.pickupAt == monday(16, 30), "picked up at \(placed.pickupAt)")
        #expect(placed.pickupAt < pinned.pickupAt)
        #expect(placed.replanned[pinned.id] == nil, "the pinned ride keeps its times")
        // A stop planned in the past (16:20, not tapped) can have nothing new before it.
        let past = booked(2, van: van, at: monday(16, 20), with: exact)
        let after = exact.check(trip(monday(16, 30), notBefore: now), vans: [van], rides: [past])
        #expect(after.assignment.map { $0.pickupAt >= past.pickupAt && $0.replanned[past.id] == nil } ?? true)
    }

    @Test func wheelchairRideNeverGoesToAVanWithoutAPosition() {
        let vans = [Fixture.van(1, wheelchair: 0), Fixture.van(2, wheelchair: 1)]
        let first = booked(1, van: vans[1], at: monday(16, 30), wheelchair: true, with: exact)
        let wheelchair = exact.check(trip(monday(16, 30), wheelchair: true), vans: vans, rides: [first])
        #expect(wheelchair.reason == .occupied)
        #expect(!wheelchair.suggestions.isEmpty && wheelchair.suggestions.allSatisfy { $0.vanID == 2 })
        #expect(exact.check(trip(monday(16, 30)), vans: vans, rides: [first]).isFeasible)
    }

    @Test func noWheelchairVanAtAll() {
        let result = scheduler.check(Fixture.request(monday(16, 30), wheelchair: true), vans: [Fixture.van(1, wheelchair: 0)], rides: [])
        #expect(result == .infeasible(reason: .noWheelchairVan, earlier: nil, later: nil))
    }

    @Test func inactiveVanIsIgnored() {
        #expect(
            scheduler.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1, active: false), Fixture.van(2)], rides: [])
                .assignment?.vanID == 2)
        #expect(scheduler.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1, active: false)], rides: []).reason == .noActiveVan)
        #expect(scheduler.check(Fixture.request(monday(16, 30)), vans: [], rides: []).reason == .noActiveVan)
    }

    @Test func excludedRideCanBeRetimedOverItself() {
        let small = try! Van(id: 1, name: "Van 1", seats: 1, wheelchairPositions: 0)
        let own = booked(7, van: small, at: monday(16, 30), with: exact)
        var moved = trip(monday(16, 31))
        moved.excludingRideID = own.id
        #expect(exact.check(moved, vans: [small], rides: [own]).assignment?.vanID == 1)
        #expect(exact.check(trip(monday(16, 31)), vans: [small], rides: [own]).reason == .occupied)
    }

    @Test func forcedVan() {
        let vans = [Fixture.van(1), Fixture.van(2, wheelchair: 0)]
        #expect(scheduler.check(Fixture.request(monday(16, 30), van: 2), vans: vans, rides: []).assignment?.vanID == 2)
        #expect(scheduler.check(Fixture.request(monday(16, 30), van: 3), vans: vans, rides: []).reason == .noActiveVan)
        #expect(scheduler.check(Fixture.request(monday(16, 30), wheelchair: true, van: 2), vans: vans, rides: []).reason == .noWheelchairVan)
    }

    @Test func prefersTheVanThatAddsTheLeastDriving() {
        let vans = [Fixture.van(1), Fixture.van(2)]
        // Van 2 already goes SSS → Davenport at 16:30: sharing it adds no driving at all.
        let first = booked(1, van: vans[1], at: monday(16, 30), with: exact)
        let placed = scheduler.check(trip(monday(16, 30)), vans: vans, rides: [first]).assignment
        #expect(placed?.vanID == 2)
        #expect(placed?.addedDriving == 0)
    }

    @Test func tiesGoToTheLowestVanID() {
        let vans = [Fixture.van(9), Fixture.van(4), Fixture.van(6)]
        #expect(scheduler.check(Fixture.request(monday(16, 0)), vans: vans, rides: []).assignment?.vanID == 4)
    }

    @Test func rideOnAnotherVanOrForAnUnknownVanDoesNotBlock() {
        let rides = [Fixture.ride(1, van: 2, monday(16, 0), monday(17, 0)), Fixture.ride(2, van: 99, monday(16, 0), monday(17, 0))]
        #expect(exact.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1)], rides: rides).isFeasible)
    }
}

/// Service hours, closures, midnight and daylight saving.
@Suite struct SchedulerServiceTests {
    let scheduler = Fixture.scheduler
    let vans = [Fixture.van(1)]

    @Test func dropoffExactlyAtClosingIsFine() {
        // Saturday 2026-11-21 closes at 07:30; an 18-minute trip at 07:12 ends exactly then.
        #expect(scheduler.check(Fixture.request(local(2026, 11, 21, 7, 12)), vans: vans, rides: []).isFeasible)
        #expect(scheduler.check(Fixture.request(local(2026, 11, 21, 7, 13)), vans: vans, rides: []).reason == .outsideServiceHours)
        #expect(scheduler.check(Fixture.request(local(2026, 11, 21, 18, 0)), vans: vans, rides: []).isFeasible)
        #expect(scheduler.check(Fixture.request(local(2026, 11, 21, 17, 59)), vans: vans, rides: []).reason == .outsideServiceHours)
    }

    @Test func tripsCrossMidnightInsideOneStretch() {
        // Friday 23:50 → Saturday 00:08 and Sunday 23:55 → Monday 00:13 are continuous service.
        #expect(scheduler.check(Fixture.request(local(2026, 11, 20, 23, 50)), vans: vans, rides: []).isFeasible)
        #expect(scheduler.check(Fixture.request(local(2026, 11, 22, 23, 55)), vans: vans, rides: []).isFeasible)
        // One route spans midnight: a ride before it and one after share the van's stretch.
        var exact = scheduler
        exact.windowWidth = 0
        let small = [try! Van(id: 1, name: "Van 1", seats: 1, wheelchairPositions: 0)]
        let rides = [Fixture.ride(1, van: 1, local(2026, 11, 20, 23, 50), local(2026, 11, 21, 0, 7))]
        // The ride arrives 00:07 (2 boarding + 15 driving), alights until 00:08, then ten minutes to an unknown place.
        #expect(exact.check(Fixture.request(local(2026, 11, 21, 0, 17)), vans: small, rides: rides).reason == .occupied)
        #expect(exact.check(Fixture.request(local(2026, 11, 21, 0, 18)), vans: small, rides: rides).isFeasible)
    }

    @Test func closureDayRefusesEveryTime() {
        let closed = Scheduler(hours: Fixture.hours, closures: [Fixture.thanksgiving])
        #expect(
            closed.check(Fixture.request(local(2026, 11, 26, 12)), vans: vans, rides: [])
                == .infeasible(reason: .closed(Fixture.thanksgiving), earlier: nil, later: nil))
        // A trip running into the closure at midnight is refused; one ending by midnight is not.
        let eve = closed.check(Fixture.request(local(2026, 11, 25, 23, 50)), vans: vans, rides: [])
        #expect(eve.reason == .closed(Fixture.thanksgiving))
        if case .infeasible(_, let earlier, let later) = eve {
            #expect(earlier?.asked == local(2026, 11, 25, 23, 42))
            #expect(later == nil)
        }
        #expect(closed.check(Fixture.request(local(2026, 11, 25, 23, 42)), vans: vans, rides: []).isFeasible)
        #expect(closed.check(Fixture.request(local(2026, 11, 27, 0, 0)), vans: vans, rides: []).isFeasible)
    }

    @Test func fallBackNightCountsAbsoluteTime() {
        // Sunday 2026-11-01: 01:30 EDT (05:30Z) and 01:30 EST (06:30Z) are an hour apart.
        var exact = scheduler
        exact.windowWidth = 0
        let small = [try! Van(id: 1, name: "Van 1", seats: 1, wheelchairPositions: 0)]
        let rides = [Fixture.ride(1, van: 1, utc("2026-11-01T05:30:00Z"), utc("2026-11-01T05:50:00Z"))]
        #expect(exact.check(Fixture.request(utc("2026-11-01T06:30:00Z")), vans: small, rides: rides).isFeasible)
        #expect(exact.check(Fixture.request(utc("2026-11-01T05:40:00Z")), vans: small, rides: rides).reason == .occupied)
        // Service ends at 07:30 EST (12:30Z) that morning.
        #expect(scheduler.check(Fixture.request(utc("2026-11-01T12:12:00Z")), vans: vans, rides: []).isFeasible)
        #expect(scheduler.check(Fixture.request(utc("2026-11-01T12:13:00Z")), vans: vans, rides: []).reason == .outsideServiceHours)
    }

    @Test func springForwardNightIsAnHourShorter() {
        // Sunday 2026-03-08 closes at 07:30 EDT = 11:30Z.
        #expect(scheduler.check(Fixture.request(utc("2026-03-08T11:12:00Z")), vans: vans, rides: []).isFeasible)
        #expect(scheduler.check(Fixture.request(utc("2026-03-08T11:13:00Z")), vans: vans, rides: []).reason == .outsideServiceHours)
    }

    @Test func convertsStoredRides() throws {
        var ride = try Ride.sample()
        #expect(BookedRide(ride) == nil)  // no van yet
        ride.vanID = 4
        let booked = try #require(BookedRide(ride))
        #expect(booked.vanID == 4 && booked.pickupAt == ride.pickupAt && booked.dropoffAt == ride.estimatedDropoffAt)
        #expect(booked.pickup == nil && booked.dropoff == ride.dropoff.coordinate)
        try ride.apply(.cancelled)
        #expect(BookedRide(ride) == nil)
    }
}
