import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

/// Nearest earlier and later suggestions, hand-computed: 18-min trips, 10-min deadhead, 5-min grid.
@Suite struct SchedulerSuggestionTests {
    let scheduler = Fixture.scheduler
    let vans = [Fixture.van(1)]
    let monday = { (hour: Int, minute: Int) in local(2026, 11, 23, hour, minute) }

    @Test func takenSlotSuggestsNearestEarlierAndLater() throws {
        // Ride 16:20–16:50. Earlier: t + 18 + 10 ≤ 16:20 → t ≤ 15:52 → 15:50.
        // Later: t ≥ 16:50 + 10 → 17:00.
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
        #expect(result == .infeasible(
            reason: .occupied,
            earlier: Suggestion(pickupAt: monday(15, 50), dropoffAt: monday(16, 8), vanID: 1, withinADAWindow: true, minutesFromRequested: -40),
            later: Suggestion(pickupAt: monday(17, 0), dropoffAt: monday(17, 18), vanID: 1, withinADAWindow: true, minutesFromRequested: 30)
        ))
    }

    @Test func offGridRequestStillSuggestsGridTimes() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        let result = scheduler.check(Fixture.request(monday(16, 32)), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.pickupAt) == [monday(15, 50), monday(17, 0)])
        #expect(result.suggestions.map(\.minutesFromRequested) == [-42, 28])
    }

    @Test func suggestionsAreStrictlyBeforeAndAfter() {
        // Ride 16:40–17:00 makes 16:30 itself infeasible (ends 16:48) though 16:20 and 17:10 work.
        let rides = [Fixture.ride(1, van: 1, monday(16, 40), monday(17, 0))]
        let result = scheduler.check(Fixture.request(monday(16, 25)), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.pickupAt) == [monday(16, 10), monday(17, 10)])
    }

    @Test func adaWindowFlags() {
        // Ride 16:20–17:20: later is 17:30, exactly +60 min: within.
        let hour = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: [Fixture.ride(1, van: 1, monday(16, 20), monday(17, 20))])
        #expect(hour.suggestions.map(\.withinADAWindow) == [true, true])
        #expect(hour.suggestions.map(\.minutesFromRequested) == [-40, 60])
        // Ride 16:20–17:50: later is 18:00, +90 min: outside.
        let longer = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: [Fixture.ride(1, van: 1, monday(16, 20), monday(17, 50))])
        #expect(longer.suggestions.map(\.withinADAWindow) == [true, false])
        #expect(longer.suggestions.map(\.minutesFromRequested) == [-40, 90])
    }

    @Test func nothingWithinTheSearchWindow() {
        // Ride 14:00–19:00: earlier would be 13:30 (−3 h), later 19:10 (+2 h 40).
        let rides = [Fixture.ride(1, van: 1, monday(14, 0), monday(19, 0))]
        #expect(scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
            == .infeasible(reason: .occupied, earlier: nil, later: nil))
        var wide = scheduler
        wide.searchWindow = 3 * 3_600
        #expect(wide.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides).suggestions.map(\.pickupAt)
            == [monday(13, 30), monday(19, 10)])
    }

    @Test func suggestionsMayComeFromDifferentVans() {
        let vans = [Fixture.van(1), Fixture.van(2)]
        let rides = [
            Fixture.ride(1, van: 1, monday(16, 0), monday(17, 0)),  // van 1 free again 17:10
            Fixture.ride(2, van: 2, monday(16, 20), monday(16, 50)), // van 2: ≤ 15:50 or ≥ 17:00
        ]
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.pickupAt) == [monday(15, 50), monday(17, 0)])
        // At 15:50 van 1 fits only until 15:32 (next ride 16:00), so van 2 takes both.
        #expect(result.suggestions.map(\.vanID) == [2, 2])
    }

    @Test func boundsKeepSuggestionsInsideTheBookableRange() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        let bounded = Fixture.request(monday(16, 30), notBefore: monday(16, 0), notAfter: monday(16, 59))
        #expect(scheduler.check(bounded, vans: vans, rides: rides) == .infeasible(reason: .occupied, earlier: nil, later: nil))
        let onlyBefore = Fixture.request(monday(16, 30), notBefore: monday(15, 45))
        #expect(scheduler.check(onlyBefore, vans: vans, rides: rides).suggestions.map(\.pickupAt) == [monday(15, 50), monday(17, 0)])
    }

    @Test func saturdayNoonIsOutsideServiceHours() {
        // Wheels hours: Saturday 07:30–18:00 closed. Within ±2 h there is nothing.
        let noon = local(2026, 11, 21, 12)
        #expect(scheduler.check(Fixture.request(noon), vans: vans, rides: [])
            == .infeasible(reason: .outsideServiceHours, earlier: nil, later: nil))
        // Within ±6 h: 07:10 (ends 07:28; 07:15 would end 07:33) and 18:00.
        var wide = scheduler
        wide.searchWindow = 6 * 3_600
        let result = wide.check(Fixture.request(noon), vans: vans, rides: [])
        #expect(result == .infeasible(
            reason: .outsideServiceHours,
            earlier: Suggestion(pickupAt: local(2026, 11, 21, 7, 10), dropoffAt: local(2026, 11, 21, 7, 28), vanID: 1, withinADAWindow: false, minutesFromRequested: -290),
            later: Suggestion(pickupAt: local(2026, 11, 21, 18), dropoffAt: local(2026, 11, 21, 18, 18), vanID: 1, withinADAWindow: false, minutesFromRequested: 360)
        ))
    }

    @Test func wheelchairSuggestionsUseTheLongerTripOnAWheelchairVan() {
        // 23-min trips: earlier t + 23 + 10 ≤ 16:20 → 15:45; later 17:00.
        let vans = [Fixture.van(1, wheelchair: 0), Fixture.van(2)]
        let rides = [Fixture.ride(1, van: 2, monday(16, 20), monday(16, 50))]
        let result = scheduler.check(Fixture.request(monday(16, 30), wheelchair: true), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.pickupAt) == [monday(15, 45), monday(17, 0)])
        #expect(result.suggestions.map(\.dropoffAt) == [monday(16, 8), monday(17, 23)])
    }

    @Test func noSuggestionSearchWithoutAPositiveStep() {
        var stepless = scheduler
        stepless.step = 0
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 50))]
        #expect(stepless.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
            == .infeasible(reason: .occupied, earlier: nil, later: nil))
    }
}
