import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

@Suite struct SchedulerSentenceTests {
    let scheduler = Fixture.solo
    let vans = [Fixture.soloVan(1)]
    let monday = { (hour: Int, minute: Int) in local(2026, 11, 23, hour, minute) }

    func sentence(_ scheduler: Scheduler, _ request: RideRequest, rides: [BookedRide] = [], vans: [Van]? = nil) -> String {
        scheduler.sentence(for: scheduler.check(request, vans: vans ?? self.vans, rides: rides), requested: request.pickupAt)
    }

    @Test func occupiedWithBothAlternatives() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        #expect(
            sentence(scheduler, Fixture.request(monday(16, 30)), rides: rides)
                == "The van is occupied at 4:30 PM. Does 3:50 PM or 4:50 PM work?")
    }

    @Test func anArrivalThatCannotBeMetIsSaidAsAnArrival() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 0), monday(16, 50))]
        var request = Fixture.request(monday(16, 30))
        request.promise = .arriveBy
        let feasibility = scheduler.check(request, vans: vans, rides: rides)
        let said = scheduler.sentence(for: feasibility, requested: request.pickupAt, promise: .arriveBy)
        #expect(said.hasPrefix("No van can get you there by 4:30 PM. Does "), "\(said)")
        // The times offered are arrival times: each one, asked again, fits.
        #expect(!feasibility.suggestions.isEmpty)
        for suggestion in feasibility.suggestions {
            var retry = request
            retry.pickupAt = suggestion.asked
            #expect(scheduler.check(retry, vans: vans, rides: rides).isFeasible)
            #expect(suggestion.promise == .arriveBy)
        }
    }

    @Test func occupiedWithOneAlternative() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        #expect(
            sentence(scheduler, Fixture.request(monday(16, 30), notBefore: monday(16, 0)), rides: rides)
                == "The van is occupied at 4:30 PM. Does 4:50 PM work?")
    }

    @Test func occupiedWithNothingNear() {
        let rides = (0...10).map { k in
            let pickup = monday(14, 0).addingTimeInterval(Double(k * 28 * 60))
            return Fixture.ride(k + 1, van: 1, pickup, pickup.addingTimeInterval(17 * 60))
        }
        #expect(
            sentence(scheduler, Fixture.request(monday(16, 30)), rides: rides)
                == "The van is occupied at 4:30 PM. Nothing is free within 2 hours of that time.")
    }

    @Test func outsideHoursOnSaturday() {
        var wide = scheduler
        wide.searchWindow = 5 * 3_600
        #expect(
            sentence(wide, Fixture.request(local(2026, 11, 21, 13)))
                == "The van does not run at 1:00 PM on Saturday. The nearest time is 6:00 PM.")
        wide.searchWindow = 6 * 3_600
        #expect(
            sentence(wide, Fixture.request(local(2026, 11, 21, 12)))
                == "The van does not run at 12:00 PM on Saturday. The nearest times are 7:10 AM and 6:00 PM.")
    }

    @Test func closedDay() {
        var closed = Fixture.solo
        closed.closures = [Fixture.thanksgiving]
        #expect(
            sentence(closed, Fixture.request(local(2026, 11, 26, 12)))
                == "The van does not run on Thursday, November 26. Nothing is free within 2 hours of that time.")
        #expect(
            sentence(closed, Fixture.request(local(2026, 11, 25, 23, 50)))
                == "The van does not run on Thursday, November 26. The nearest time is 11:40 PM.")
    }

    @Test func alternativeOnAnotherDayNamesTheDay() {
        let rides = [Fixture.ride(1, van: 1, local(2026, 11, 20, 23, 30), local(2026, 11, 21, 0, 20))]
        #expect(
            sentence(scheduler, Fixture.request(local(2026, 11, 20, 23, 55)), rides: rides)
                == "The van is occupied at 11:55 PM. Does 11:00 PM or 12:00 AM on Saturday work?")
    }

    @Test func fleetProblemsAndSuccess() {
        #expect(
            sentence(scheduler, Fixture.request(monday(16, 30), wheelchair: true), vans: [Fixture.soloVan(1, wheelchair: 0)])
                == "No van with a wheelchair position is in service.")
        #expect(sentence(scheduler, Fixture.request(monday(16, 30)), vans: []) == "No van is in service.")
        #expect(sentence(scheduler, Fixture.request(monday(16, 30))) == "The van can pick you up at 4:30 PM.")
    }

    @Test func otherTimeZoneOnRequest() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
        #expect(
            scheduler.sentence(for: result, requested: monday(16, 30), timeZone: TimeZone(identifier: "UTC")!)
                == "The van is occupied at 9:30 PM. Does 8:50 PM or 9:50 PM work?")
    }

    @Test func reasonCodes() {
        #expect(
            [Infeasibility.outsideServiceHours, .closed(Fixture.thanksgiving), .occupied, .noWheelchairVan, .noActiveVan].map(\.code)
                == ["outside_service_hours", "closed", "occupied", "no_wheelchair_van", "no_active_van"])
    }
}
