import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

/// Nearest earlier and later suggestions, worked out by hand on `Fixture.solo`: a ride picked up
/// at p keeps a one-seat van from any unknown-ended pickup t with p − 28 min < t < p + 28 min.
@Suite struct SchedulerSuggestionTests {
    let scheduler = Fixture.solo
    let vans = [Fixture.soloVan(1)]
    let monday = { (hour: Int, minute: Int) in local(2026, 11, 23, hour, minute) }

    @Test func takenSlotSuggestsNearestEarlierAndLater() throws {
        // Ride at 16:20. Earlier: t ≤ 15:52 → 15:50. Later: t ≥ 16:48 → 16:50. Arrival 17 min after pickup.
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 37))]
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
        #expect(
            result
                == .infeasible(
                    reason: .occupied,
                    earlier: Suggestion(
                        pickupAt: monday(15, 50), dropoffAt: monday(16, 7), vanID: 1, withinADAWindow: true, minutesFromRequested: -40),
                    later: Suggestion(pickupAt: monday(16, 50), dropoffAt: monday(17, 7), vanID: 1, withinADAWindow: true, minutesFromRequested: 20)
                ))
    }

    @Test func offGridRequestStillSuggestsGridTimes() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 37))]
        let result = scheduler.check(Fixture.request(monday(16, 32)), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.asked) == [monday(15, 50), monday(16, 50)])
        #expect(result.suggestions.map(\.minutesFromRequested) == [-42, 18])
    }

    @Test func suggestionsAreStrictlyBeforeAndAfter() {
        // A ride at 16:40 blocks (16:12, 17:08): 16:25 is taken though 16:10 and 17:10 work.
        let rides = [Fixture.ride(1, van: 1, monday(16, 40), monday(16, 57))]
        let result = scheduler.check(Fixture.request(monday(16, 25)), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.asked) == [monday(16, 10), monday(17, 10)])
    }

    @Test func adaWindowFlags() {
        // Rides at 16:20 and 17:02 block (15:52, 17:30): later is 17:30, exactly +60 min: within.
        let hour = scheduler.check(
            Fixture.request(monday(16, 30)), vans: vans,
            rides: [
                Fixture.ride(1, van: 1, monday(16, 20), monday(16, 37)), Fixture.ride(2, van: 1, monday(17, 2), monday(17, 19)),
            ])
        #expect(hour.suggestions.map(\.withinADAWindow) == [true, true])
        #expect(hour.suggestions.map(\.minutesFromRequested) == [-40, 60])
        // Rides at 16:20 and 17:12 block (15:52, 17:40): later is 17:40, +70 min: outside.
        let longer = scheduler.check(
            Fixture.request(monday(16, 30)), vans: vans,
            rides: [
                Fixture.ride(1, van: 1, monday(16, 20), monday(16, 37)), Fixture.ride(2, van: 1, monday(17, 12), monday(17, 29)),
            ])
        #expect(longer.suggestions.map(\.withinADAWindow) == [true, false])
        #expect(longer.suggestions.map(\.minutesFromRequested) == [-40, 70])
    }

    @Test func nothingWithinTheSearchWindow() {
        // A ride every 28 minutes from 14:00 to 18:40 blocks (13:32, 19:08).
        let rides = (0...10).map { k in
            let pickup = monday(14, 0).addingTimeInterval(Double(k * 28 * 60))
            return Fixture.ride(k + 1, van: 1, pickup, pickup.addingTimeInterval(17 * 60))
        }
        #expect(
            scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
                == .infeasible(reason: .occupied, earlier: nil, later: nil))
        var wide = scheduler
        wide.searchWindow = 3 * 3_600
        #expect(
            wide.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides).suggestions.map(\.asked)
                == [monday(13, 30), monday(19, 10)])
    }

    @Test func suggestionsMayComeFromDifferentVans() {
        let vans = [Fixture.soloVan(1), Fixture.soloVan(2)]
        let rides = [
            Fixture.ride(1, van: 1, monday(16, 0), monday(16, 17)),  // van 1 blocked (15:32, 16:56)
            Fixture.ride(2, van: 1, monday(16, 28), monday(16, 45)),
            Fixture.ride(3, van: 2, monday(16, 20), monday(16, 37)),  // van 2 blocked (15:52, 16:48)
        ]
        let result = scheduler.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.asked) == [monday(15, 50), monday(16, 50)])
        #expect(result.suggestions.map(\.vanID) == [2, 2])
    }

    @Test func boundsKeepSuggestionsInsideTheBookableRange() {
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 37))]
        let bounded = Fixture.request(monday(16, 30), notBefore: monday(16, 0), notAfter: monday(16, 49))
        #expect(scheduler.check(bounded, vans: vans, rides: rides) == .infeasible(reason: .occupied, earlier: nil, later: nil))
        let onlyBefore = Fixture.request(monday(16, 30), notBefore: monday(15, 45))
        #expect(scheduler.check(onlyBefore, vans: vans, rides: rides).suggestions.map(\.asked) == [monday(15, 50), monday(16, 50)])
    }

    @Test func saturdayNoonIsOutsideServiceHours() {
        // Wheels hours: Saturday 07:30–18:00 closed. Within ±2 h there is nothing.
        let noon = local(2026, 11, 21, 12)
        #expect(
            scheduler.check(Fixture.request(noon), vans: vans, rides: [])
                == .infeasible(reason: .outsideServiceHours, earlier: nil, later: nil))
        // Within ±6 h: 07:10 (done 07:28; 07:15 would be done 07:33) and 18:00.
        var wide = scheduler
        wide.searchWindow = 6 * 3_600
        let result = wide.check(Fixture.request(noon), vans: vans, rides: [])
        #expect(
            result
                == .infeasible(
                    reason: .outsideServiceHours,
                    earlier: Suggestion(
                        pickupAt: local(2026, 11, 21, 7, 10), dropoffAt: local(2026, 11, 21, 7, 27), vanID: 1, withinADAWindow: false,
                        minutesFromRequested: -290),
                    later: Suggestion(
                        pickupAt: local(2026, 11, 21, 18), dropoffAt: local(2026, 11, 21, 18, 17), vanID: 1, withinADAWindow: false,
                        minutesFromRequested: 360)
                ))
    }

    @Test func wheelchairRidersShareOnlyTheSeatsTheyLeaveFree() {
        // A wheelchair position is not a seat: the wheelchair rider may ride along with the
        // ambulatory one. Earlier: boarded 16:05–16:10, then 10 minutes to the ride's pickup at
        // 16:20 (16:10 would reach it 16:25, too late); dropped 10 minutes after that ride boards, 16:32.
        // Later: the van reaches it 16:22 + 10 = 16:32 → 16:35.
        let vans = [Fixture.soloVan(1, wheelchair: 0), Fixture.soloVan(2)]
        let rides = [Fixture.ride(1, van: 2, monday(16, 20), monday(16, 37))]
        let result = scheduler.check(Fixture.request(monday(16, 30), wheelchair: true), vans: vans, rides: rides)
        #expect(result.suggestions.map(\.asked) == [monday(16, 5), monday(16, 35)])
        #expect(result.suggestions.map(\.vanID) == [2, 2])
        #expect(result.suggestions.first?.dropoffAt == monday(16, 32))
    }

    @Test func noSuggestionSearchWithoutAPositiveStep() {
        var stepless = scheduler
        stepless.step = 0
        let rides = [Fixture.ride(1, van: 1, monday(16, 20), monday(16, 37))]
        #expect(
            stepless.check(Fixture.request(monday(16, 30)), vans: vans, rides: rides)
                == .infeasible(reason: .occupied, earlier: nil, later: nil))
    }
}
