import Foundation
import Testing
import VanDomain

@Suite("On-time rules")
struct OnTimeTests {
    static let t0 = Date(timeIntervalSince1970: 1_794_805_200)  // 10:00 of the window's start

    static func stop(
        _ kind: StopKind = .pickup, promise: RidePromise.Kind = .pickup, arrived: TimeInterval? = nil,
        departed: TimeInterval? = nil, outcome: TapAction? = nil, boarded: TimeInterval? = nil
    ) -> RecordedStop {
        RecordedStop(
            kind: kind, promise: RidePromise(kind: promise, window: DateInterval(start: t0, duration: 900)), planned: t0,
            arrivedAt: arrived.map(t0.addingTimeInterval), departedAt: departed.map(t0.addingTimeInterval), outcome: outcome,
            boardedAt: boarded.map(t0.addingTimeInterval), maxRideTime: 1_800, directRide: 600)
    }

    @Test func aPickupIsJudgedAgainstItsWindowWithBothEndsInside() {
        let now = Self.t0.addingTimeInterval(86_400)
        #expect(OnTime.verdict(Self.stop(arrived: 0), now: now) == .onTime)
        #expect(OnTime.verdict(Self.stop(arrived: 900), now: now) == .onTime)
        // Late by the one rule (Lateness): from a whole minute past the window's end.
        #expect(OnTime.verdict(Self.stop(arrived: 901), now: now) == .onTime)
        #expect(OnTime.verdict(Self.stop(arrived: 959.9), now: now) == .onTime)
        #expect(OnTime.verdict(Self.stop(arrived: 960), now: now) == .late(60))
        #expect(OnTime.verdict(Self.stop(arrived: -120), now: now) == .early(120))
        #expect(OnTime.verdict(Self.stop(arrived: -120), now: now).minutesLate == -2)
        // Only the outcome tapped: its time is the van's.
        #expect(OnTime.verdict(Self.stop(departed: 1_260, outcome: .boarded), now: now) == .late(360))
    }

    @Test func noTapIsNeverOnTime() {
        #expect(OnTime.verdict(Self.stop(), now: Self.t0.addingTimeInterval(1)) == .notRecorded)
        #expect(OnTime.verdict(Self.stop(), now: Self.t0.addingTimeInterval(-1)) == .upcoming)
        #expect(OnTime.verdict(Self.stop(), now: Self.t0).minutesLate == nil)
        let figures = OnTimeFigures([Self.stop(), Self.stop(arrived: 60)], now: Self.t0.addingTimeInterval(3_600))
        #expect(figures.pickupsRecorded == 1 && figures.pickupsOnTime == 1 && figures.pickupsNotRecorded == 1)
        #expect(figures.pickupOnTimeShare == 1)
    }

    @Test func anArriveByDropOffIsOnTimeAtOrBeforeTheAskedTimeAndItsPickupIsNotJudged() {
        let now = Self.t0.addingTimeInterval(86_400)
        #expect(OnTime.verdict(Self.stop(.dropoff, promise: .arriveBy, arrived: -3_600), now: now) == .onTime)
        #expect(OnTime.verdict(Self.stop(.dropoff, promise: .arriveBy, arrived: 900), now: now) == .onTime)
        #expect(OnTime.verdict(Self.stop(.dropoff, promise: .arriveBy, arrived: 1_140), now: now) == .late(240))
        #expect(OnTime.verdict(Self.stop(.pickup, promise: .arriveBy, arrived: 3_000), now: now) == .notMeasured)
        #expect(OnTime.verdict(Self.stop(.dropoff, promise: .pickup, arrived: 3_000), now: now) == .notMeasured)
    }

    @Test func rideTimeIsOnBoardToTheDropOffAndWaitIsArrivedToOnBoard() {
        #expect(OnTime.rideTime(Self.stop(.dropoff, arrived: 1_500, boarded: 300)) == 1_200)
        #expect(OnTime.rideTime(Self.stop(.dropoff, arrived: 1_500)) == nil)
        #expect(OnTime.wait(Self.stop(arrived: 60, departed: 180, outcome: .boarded)) == 120)
        #expect(OnTime.wait(Self.stop(arrived: 60, departed: 480, outcome: .noShow)) == nil)
    }

    @Test func theP95IsTheNearestRank() {
        #expect(OnTime.p95([]) == nil)
        #expect(OnTime.p95([7]) == 7)
        #expect(OnTime.p95([5, 1, 4, 2, 3]) == 5)
        #expect(OnTime.p95((1...20).map(Double.init)) == 19)  // ⌈0.95 × 20⌉ = 19th
        #expect(OnTime.p95((1...100).map(Double.init)) == 95)
    }
}
