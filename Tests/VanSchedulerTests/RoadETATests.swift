import Foundation
import Testing
@testable import VanScheduler
import VanDomain

/// The ETA from the road, with figures worked out from the default travel model: 1 km of
/// straight line drives in 1 km × 1.3 ÷ 20 km/h = 234 s; boarding 120 s (wheelchair 300 s),
/// alighting 60 s (wheelchair 180 s); an unknown place is 600 s of deadhead away.
@Suite struct RoadETATests {
    let engine = RoadETA()
    let t0 = Date(timeIntervalSince1970: 1_795_953_600)
    let origin = Fixture.sss
    func km(_ value: Double) -> Coordinate { Fixture.north(of: origin, meters: value * 1_000) }
    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }
    let ann = UUID(), bea = UUID()

    /// Ann picked up 1 km north, dropped off 3 km north; Bea picked up 3 km north too.
    func route(
        annOpens: TimeInterval? = nil, annWindowEnd: TimeInterval? = nil, beaOpens: TimeInterval? = nil,
        annArrived: TimeInterval? = nil, beaWheelchair: Bool = false
    ) -> [RoadETA.Stop] {
        [
            .init(
                rideID: ann, kind: .pickup, location: km(1), plannedAt: at(300), opensAt: annOpens.map(at),
                windowEnd: annWindowEnd.map(at), arrivedAt: annArrived.map(at)),
            .init(rideID: bea, kind: .pickup, location: km(3), wheelchair: beaWheelchair, plannedAt: at(900), opensAt: beaOpens.map(at)),
            .init(rideID: ann, kind: .dropoff, location: km(3), plannedAt: at(1_000)),
        ]
    }

    @Test func freshPositionDrivesThroughTheStopsInOrder() {
        // From 0 km at t0: Ann's pickup at 234; boards to 354; 2 km (468 s) to 3 km: 822; Bea boards
        // to 942; Ann's drop-off is at the same place: 942, alighting to 1002.
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(), now: at(10))
        #expect(estimates.map(\.arrival) == [at(234), at(822), at(942)])
        #expect(estimates.map(\.departure) == [at(354), at(942), at(1_002)])
        #expect(estimates.map(\.stopsBefore) == [0, 1, 2])
        #expect(estimates.allSatisfy { !$0.here })
        #expect(estimates[1].behindPlan == -78)
    }

    @Test func aWheelchairTakesLongerToBoard() {
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(beaWheelchair: true), now: t0)
        // Bea boards 300 s from 822: Ann's drop-off at 1122.
        #expect(estimates[2].arrival == at(1_122))
    }

    @Test func theVanWaitsAtAPickupUntilItsWindowOpens() {
        // Ann's window opens at 600: the van arrives at 234, waits, boards 600–720, reaches 3 km at 1188.
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(annOpens: 600), now: t0)
        #expect(estimates[0].arrival == at(234))
        #expect(estimates[0].departure == at(720))
        #expect(estimates[1].arrival == at(1_188))
        #expect(estimates[2].arrival == at(1_308))
        // Ready for Ann when her window opens (the van waits at her door); for Bea, on arrival.
        #expect(estimates[0].ready == at(600) && estimates[0].waitsForOpening)
        #expect(estimates[1].ready == at(1_188) && !estimates[1].waitsForOpening)
    }

    @Test func aVanDueAfterTheOpeningIsReadyOnArrival() {
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(annOpens: 100), now: t0)
        #expect(estimates[0].ready == at(234))
        #expect(!estimates[0].waitsForOpening)
    }

    @Test func lateBeyondTheWindowsEnd() {
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(annWindowEnd: 200), now: t0)
        #expect(estimates[0].lateness?.seconds == 34)
        #expect(!estimates[0].isLate, "34 s past the window is not yet a whole minute")
        #expect(!estimates[1].isLate)  // no promise on Bea's pickup stop here
    }

    @Test func aVanNotYetThereIsAtLeastAsLateAsTheClock() {
        // The last fix is 900 s old and the van has not reached Ann (234 s away): it is 666 s late,
        // reaching her no sooner than now; that carries on: 900 + 120 + 468 = 1488, then 1608.
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(annWindowEnd: 600), now: at(900))
        #expect(estimates.map(\.arrival) == [at(900), at(1_488), at(1_608)])
        #expect(estimates[0].lateness?.seconds == 300 && estimates[0].lateness?.minutes == 5 && estimates[0].isLate)
    }

    @Test func waitingAbsorbsLatenessCarriedForward() {
        // Late to Ann (now 900), but Bea's window opens at 2000: the van waits there, and Ann's
        // drop-off follows Bea's boarding whatever the lateness before.
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(beaOpens: 2_000), now: at(900))
        #expect(estimates[1].arrival == at(1_488))
        #expect(estimates[1].departure == at(2_120))
        #expect(estimates[2].arrival == at(2_120))
    }

    @Test func aStopTheVanArrivedAtIsWhereTheVanIs() {
        // Arrived at Ann's pickup at 250; boarding runs to 370, now is 300: 370 + 468 = 838.
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(annArrived: 250), now: at(300))
        #expect(estimates[0].here)
        #expect(estimates[0].arrival == at(250))
        #expect(estimates[1].arrival == at(838))
        #expect(estimates[1].stopsBefore == 1)
    }

    @Test func boardingThatOverrunsLeavesNoSoonerThanNow() {
        // Arrived at 250, still boarding at 500 (no "on board" yet): leaves at 500, Bea at 968.
        let estimates = engine.estimates(from: .init(location: origin, at: t0), through: route(annArrived: 250), now: at(500))
        #expect(estimates[0].departure == at(500))
        #expect(estimates[1].arrival == at(968))
    }

    @Test func fromAStopOfUnknownPlace() {
        // The last tap was at a typed address: 600 s to anywhere known.
        let estimates = engine.estimates(from: .init(location: nil, at: t0), through: route(), now: t0)
        #expect(estimates[0].arrival == at(600))
    }

    @Test func noStopsNoEstimates() {
        #expect(engine.estimates(from: .init(location: origin, at: t0), through: [], now: t0).isEmpty)
    }
}
