import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

/// Free start intervals for a 15-minute typical trip with 10-minute deadhead.
@Suite struct SchedulerAvailabilityTests {
    let scheduler = Scheduler(hours: Fixture.hours, closures: [Fixture.thanksgiving])
    let monday = try! LocalDate("2026-11-23")

    func span(_ from: Date, _ to: Date) -> DateInterval { DateInterval(start: from, end: to) }

    @Test func gapAroundOneRide() {
        // Ride 16:20–16:50 blocks starts in (16:20 − 15 − 10, 16:50 + 10) = (15:55, 17:00).
        let rides = [Fixture.ride(1, van: 1, local(2026, 11, 23, 16, 20), local(2026, 11, 23, 16, 50))]
        let free = scheduler.availability(on: monday, wheelchair: false, vans: [Fixture.van(1)], rides: rides)
        #expect(free == [
            span(local(2026, 11, 23, 0), local(2026, 11, 23, 15, 55)),
            span(local(2026, 11, 23, 17), local(2026, 11, 24, 0)),
        ])
    }

    @Test func mergesAcrossVans() {
        let rides = [
            Fixture.ride(1, van: 1, local(2026, 11, 23, 16, 20), local(2026, 11, 23, 16, 50)),
            Fixture.ride(2, van: 2, local(2026, 11, 23, 10), local(2026, 11, 23, 11)),
        ]
        let vans = [Fixture.van(1), Fixture.van(2, wheelchair: 0)]
        #expect(scheduler.availability(on: monday, wheelchair: false, vans: vans, rides: rides)
            == [span(local(2026, 11, 23, 0), local(2026, 11, 24, 0))])
        // Only van 1 can take a wheelchair.
        #expect(scheduler.availability(on: monday, wheelchair: true, vans: vans, rides: rides).count == 2)
        #expect(scheduler.availability(on: monday, wheelchair: true, vans: [vans[1]], rides: rides).isEmpty)
    }

    @Test func saturdayFollowsServiceHours() throws {
        let free = scheduler.availability(on: try LocalDate("2026-11-21"), wheelchair: false, vans: [Fixture.van(1)], rides: [])
        #expect(free == [
            span(local(2026, 11, 21, 0), local(2026, 11, 21, 7, 15)),
            span(local(2026, 11, 21, 18), local(2026, 11, 22, 0)),
        ])
    }

    @Test func closureDayHasNothingAndTheEveStopsInTime() throws {
        #expect(scheduler.availability(on: Fixture.thanksgiving, wheelchair: false, vans: [Fixture.van(1)], rides: []).isEmpty)
        let eve = scheduler.availability(on: try LocalDate("2026-11-25"), wheelchair: false, vans: [Fixture.van(1)], rides: [])
        #expect(eve == [span(local(2026, 11, 25, 0), local(2026, 11, 25, 23, 45))])
    }

    @Test func exactFitIsASingleInstant() {
        // Rides end 16:00 and start 16:35: a 15-min ride fits only at 16:10 (16:00 + 10; 16:25 + 10 = 16:35).
        let rides = [
            Fixture.ride(1, van: 1, local(2026, 11, 23, 15, 30), local(2026, 11, 23, 16)),
            Fixture.ride(2, van: 1, local(2026, 11, 23, 16, 35), local(2026, 11, 23, 17)),
        ]
        let free = scheduler.availability(
            from: local(2026, 11, 23, 15), to: local(2026, 11, 23, 18), wheelchair: false, vans: [Fixture.van(1)], rides: rides
        )
        #expect(free == [
            span(local(2026, 11, 23, 15), local(2026, 11, 23, 15, 5)),
            span(local(2026, 11, 23, 16, 10), local(2026, 11, 23, 16, 10)),
            span(local(2026, 11, 23, 17, 10), local(2026, 11, 23, 18)),
        ])
        // And check agrees at, and only at, that instant.
        let request = RideRequest(pickup: nil, dropoff: nil, pickupAt: local(2026, 11, 23, 16, 10))
        var exact = scheduler
        exact.estimator.unknownLegDuration = 12 * 60 // 2 + 12 + 1 = 15 min
        #expect(exact.check(request, vans: [Fixture.van(1)], rides: rides).isFeasible)
        let late = RideRequest(pickup: nil, dropoff: nil, pickupAt: local(2026, 11, 23, 16, 11))
        #expect(!exact.check(late, vans: [Fixture.van(1)], rides: rides).isFeasible)
    }

    @Test func noEligibleVanOrEmptyRange() {
        #expect(scheduler.availability(on: monday, wheelchair: false, vans: [Fixture.van(1, active: false)], rides: []).isEmpty)
        #expect(scheduler.availability(
            from: local(2026, 11, 23, 12), to: local(2026, 11, 23, 11), wheelchair: false, vans: [Fixture.van(1)], rides: []
        ).isEmpty)
    }
}
