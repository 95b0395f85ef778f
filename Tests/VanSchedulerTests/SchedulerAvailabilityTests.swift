import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

/// Start times a typical ride (unknown ends: done 18 minutes after pickup, 28 minutes before the
/// van is free for another unknown place) could be booked at, every five minutes, on `Fixture.solo`.
@Suite struct SchedulerAvailabilityTests {
    let scheduler = {
        var s = Fixture.solo; s.closures = [Fixture.thanksgiving]; return s
    }()
    let monday = try! LocalDate("2026-11-23")

    func span(_ from: Date, _ to: Date) -> DateInterval { DateInterval(start: from, end: to) }

    @Test func gapAroundOneRide() {
        // A ride at 16:20 blocks starts in (15:52, 16:48).
        let rides = [Fixture.ride(1, van: 1, local(2026, 11, 23, 16, 20), local(2026, 11, 23, 16, 37))]
        let free = scheduler.availability(on: monday, wheelchair: false, vans: [Fixture.soloVan(1)], rides: rides)
        #expect(
            free == [
                span(local(2026, 11, 23, 0), local(2026, 11, 23, 15, 50)),
                span(local(2026, 11, 23, 16, 50), local(2026, 11, 23, 23, 55)),
            ])
    }

    @Test func mergesAcrossVans() {
        let rides = [Fixture.ride(1, van: 1, local(2026, 11, 23, 16, 20), local(2026, 11, 23, 16, 37))]
        let vans = [Fixture.soloVan(1), Fixture.soloVan(2)]
        #expect(
            scheduler.availability(on: monday, wheelchair: false, vans: vans, rides: rides)
                == [span(local(2026, 11, 23, 0), local(2026, 11, 23, 23, 55))])
        // A wheelchair rider has only van 2's position.
        let chairs = [Fixture.soloVan(1, wheelchair: 0), Fixture.soloVan(2, wheelchair: 0)]
        #expect(scheduler.availability(on: monday, wheelchair: true, vans: chairs, rides: []).isEmpty)
    }

    @Test func saturdayFollowsServiceHours() {
        // Saturday: service until 07:30 (the last 18-minute ride starts 07:10 on the grid), from 18:00.
        let free = scheduler.availability(on: try! LocalDate("2026-11-21"), wheelchair: false, vans: [Fixture.soloVan(1)], rides: [])
        #expect(
            free == [
                span(local(2026, 11, 21, 0), local(2026, 11, 21, 7, 10)),
                span(local(2026, 11, 21, 18), local(2026, 11, 21, 23, 55)),
            ])
    }

    @Test func closureDayHasNothingAndTheEveStopsInTime() {
        #expect(scheduler.availability(on: Fixture.thanksgiving, wheelchair: false, vans: [Fixture.soloVan(1)], rides: []).isEmpty)
        // The eve: a ride must be done by midnight, so the last start is 23:40 (done 23:58).
        let eve = scheduler.availability(on: try! LocalDate("2026-11-25"), wheelchair: false, vans: [Fixture.soloVan(1)], rides: [])
        #expect(eve.last?.end == local(2026, 11, 25, 23, 40))
    }

    @Test func nothingBeforeNow() {
        let free = scheduler.availability(
            on: monday, wheelchair: false, vans: [Fixture.soloVan(1)], rides: [],
            notBefore: local(2026, 11, 23, 12, 2))
        #expect(free.first?.start == local(2026, 11, 23, 12, 5))
    }
}
