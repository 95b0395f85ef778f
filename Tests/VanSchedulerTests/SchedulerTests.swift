import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

/// Feasibility rules on Monday 2026-11-23 (EST) unless stated; unknown ends, so trips take
/// 18 min (23 with a wheelchair) and deadhead 10 min.
@Suite struct SchedulerTests {
    let scheduler = Fixture.scheduler
    let monday = { (hour: Int, minute: Int) in local(2026, 11, 23, hour, minute) }

    @Test func freeSlotIsAccepted() {
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1)], rides: [])
        #expect(result == .feasible(Assignment(
            vanID: 1, pickupAt: monday(16, 30), dropoffAt: monday(16, 48), idleGap: 2 * Scheduler.idleCap
        )))
    }

    @Test func overlappingSlotIsRefused() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1)], rides: rides)
        #expect(result.reason == .occupied)
    }

    @Test func deadheadFromThePreviousRideIsRespected() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 0), monday(16, 20))]
        // No overlap at 16:25, but the van is only ready at 16:20 + 10 min.
        #expect(scheduler.check(Fixture.request(monday(16, 25)), vans: [Fixture.van(1)], rides: rides).reason == .occupied)
        let ok = scheduler.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1)], rides: rides)
        #expect(ok.assignment?.idleGap == Scheduler.idleCap) // no slack before, nothing after
    }

    @Test func deadheadToTheNextRideIsRespected() {
        let rides = [Fixture.ride(1, van: 1, monday(17, 0), monday(17, 20))]
        // 16:35 ends 16:53, free again 17:03 > 17:00.
        #expect(scheduler.check(Fixture.request(monday(16, 35)), vans: [Fixture.van(1)], rides: rides).reason == .occupied)
        // 16:32 ends 16:50, free again exactly 17:00.
        #expect(scheduler.check(Fixture.request(monday(16, 32)), vans: [Fixture.van(1)], rides: rides).isFeasible)
    }

    @Test func deadheadUsesTheDistanceWhenBothEndsAreKnown() {
        let far = Fixture.north(of: Fixture.sss, meters: 3_000) // 3 km × 1.3 ÷ 20 km/h = 702 s
        let rides = [Fixture.ride(1, van: 1, monday(15, 40), monday(16, 0), from: Fixture.sss, to: Fixture.sss)]
        func request(_ time: Date) -> RideRequest {
            RideRequest(pickup: far, dropoff: Fixture.sss, pickupAt: time)
        }
        #expect(scheduler.check(request(monday(16, 10)), vans: [Fixture.van(1)], rides: rides).reason == .occupied)
        #expect(scheduler.check(request(monday(16, 11)), vans: [Fixture.van(1)], rides: rides).reason == .occupied)
        #expect(scheduler.check(request(monday(16, 12)), vans: [Fixture.van(1)], rides: rides).assignment?.idleGap
            == 18 + Scheduler.idleCap)
    }

    @Test func wheelchairRideNeverGoesToAVanWithoutAPosition() {
        let vans = [Fixture.van(1, wheelchair: 0), Fixture.van(2, wheelchair: 1)]
        let rides = [Fixture.ride(1, van: 2, monday(16, 20), monday(16, 50))]
        let wheelchair = scheduler.check(Fixture.request(monday(16, 30), wheelchair: true), vans: vans, rides: rides)
        #expect(wheelchair.reason == .occupied)
        #expect(wheelchair.suggestions.map(\.vanID) == [2, 2])
        // The same time is fine for an ambulatory rider, on the free van.
        #expect(scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides).assignment?.vanID == 1)
    }

    @Test func noWheelchairVanAtAll() {
        let result = scheduler.check(
            Fixture.request(monday(16, 30), wheelchair: true), vans: [Fixture.van(1, wheelchair: 0)], rides: []
        )
        #expect(result == .infeasible(reason: .noWheelchairVan, earlier: nil, later: nil))
    }

    @Test func inactiveVanIsIgnored() {
        let vans = [Fixture.van(1, active: false), Fixture.van(2)]
        let rides = [Fixture.ride(1, van: 2, monday(16, 20), monday(16, 50))]
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
        #expect(result.reason == .occupied)
        #expect(result.suggestions.allSatisfy { $0.vanID == 2 })
        #expect(scheduler.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1, active: false)], rides: []).reason
            == .noActiveVan)
        #expect(scheduler.check(Fixture.request(monday(16, 30)), vans: [], rides: []).reason == .noActiveVan)
    }

    @Test func excludedRideCanBeRetimedOverItself() {
        let own = Fixture.ride(7, van: 1, monday(16, 30), monday(16, 48))
        let moved = Fixture.request(monday(16, 40), excluding: own.id)
        #expect(scheduler.check(moved, vans: [Fixture.van(1)], rides: [own]).assignment?.vanID == 1)
        #expect(scheduler.check(Fixture.request(monday(16, 40)), vans: [Fixture.van(1)], rides: [own]).reason == .occupied)
    }

    @Test func forcedVan() {
        let vans = [Fixture.van(1), Fixture.van(2, wheelchair: 0)]
        #expect(scheduler.check(Fixture.request(monday(16, 30), van: 2), vans: vans, rides: []).assignment?.vanID == 2)
        #expect(scheduler.check(Fixture.request(monday(16, 30), van: 3), vans: vans, rides: []).reason == .noActiveVan)
        #expect(scheduler.check(Fixture.request(monday(16, 30), wheelchair: true, van: 2), vans: vans, rides: []).reason
            == .noWheelchairVan)
    }

    @Test func prefersTheVanLeavingTheLeastIdleGap() {
        let vans = [Fixture.van(3), Fixture.van(2), Fixture.van(1)]
        let rides = [
            Fixture.ride(1, van: 1, monday(15, 30), monday(15, 50)), // ready 16:00: no slack
            Fixture.ride(2, van: 2, monday(14, 40), monday(15, 0)),  // ready 15:10: 50 min slack
        ]
        let result = scheduler.check(Fixture.request(monday(16, 0)), vans: vans, rides: rides)
        #expect(result.assignment == Assignment(vanID: 1, pickupAt: monday(16, 0), dropoffAt: monday(16, 18), idleGap: Scheduler.idleCap))
        // Van 1 lacking deadhead by a minute: van 2 is next best.
        let later = [Fixture.ride(1, van: 1, monday(15, 35), monday(15, 51)), rides[1]]
        #expect(scheduler.check(Fixture.request(monday(16, 0)), vans: vans, rides: later).assignment?.idleGap
            == 50 * 60 + Scheduler.idleCap)
        #expect(scheduler.check(Fixture.request(monday(16, 0)), vans: vans, rides: later).assignment?.vanID == 2)
    }

    @Test func tiesGoToTheLowestVanID() {
        let vans = [Fixture.van(9), Fixture.van(4), Fixture.van(6)]
        #expect(scheduler.check(Fixture.request(monday(16, 0)), vans: vans, rides: []).assignment?.vanID == 4)
    }

    @Test func rideOnAnotherVanOrForAnUnknownVanDoesNotBlock() {
        let rides = [Fixture.ride(1, van: 2, monday(16, 0), monday(17, 0)), Fixture.ride(2, van: 99, monday(16, 0), monday(17, 0))]
        #expect(scheduler.check(Fixture.request(monday(16, 30)), vans: [Fixture.van(1)], rides: rides).isFeasible)
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
        // Deadhead across midnight is counted too.
        let rides = [Fixture.ride(1, van: 1, local(2026, 11, 20, 23, 40), local(2026, 11, 20, 23, 58))]
        #expect(scheduler.check(Fixture.request(local(2026, 11, 21, 0, 5)), vans: vans, rides: rides).reason == .occupied)
        #expect(scheduler.check(Fixture.request(local(2026, 11, 21, 0, 8)), vans: vans, rides: rides).isFeasible)
    }

    @Test func closureDayRefusesEveryTime() {
        let closed = Scheduler(hours: Fixture.hours, closures: [Fixture.thanksgiving])
        #expect(closed.check(Fixture.request(local(2026, 11, 26, 12)), vans: vans, rides: [])
            == .infeasible(reason: .closed(Fixture.thanksgiving), earlier: nil, later: nil))
        // A trip running into the closure at midnight is refused; one ending by midnight is not.
        let eve = closed.check(Fixture.request(local(2026, 11, 25, 23, 50)), vans: vans, rides: [])
        #expect(eve.reason == .closed(Fixture.thanksgiving))
        if case .infeasible(_, let earlier, let later) = eve {
            #expect(earlier?.pickupAt == local(2026, 11, 25, 23, 40))
            #expect(later == nil)
        }
        #expect(closed.check(Fixture.request(local(2026, 11, 25, 23, 42)), vans: vans, rides: []).isFeasible)
        #expect(closed.check(Fixture.request(local(2026, 11, 27, 0, 0)), vans: vans, rides: []).isFeasible)
    }

    @Test func fallBackNightCountsAbsoluteTime() {
        // Sunday 2026-11-01: 01:30 EDT (05:30Z) and 01:30 EST (06:30Z) are an hour apart.
        let rides = [Fixture.ride(1, van: 1, utc("2026-11-01T05:30:00Z"), utc("2026-11-01T05:50:00Z"))]
        #expect(scheduler.check(Fixture.request(utc("2026-11-01T06:30:00Z")), vans: vans, rides: rides).isFeasible)
        #expect(scheduler.check(Fixture.request(utc("2026-11-01T05:40:00Z")), vans: vans, rides: rides).reason == .occupied)
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
        #expect(BookedRide(ride) == nil) // no van yet
        ride.vanID = 4
        let booked = try #require(BookedRide(ride))
        #expect(booked.vanID == 4 && booked.pickupAt == ride.pickupAt && booked.dropoffAt == ride.estimatedDropoffAt)
        #expect(booked.pickup == nil && booked.dropoff == ride.dropoff.coordinate)
        try ride.apply(.cancelled)
        #expect(BookedRide(ride) == nil)
    }
}
