import Foundation
import Testing
import VanDomain
import VanScheduler
@testable import VanServices

/// "Leave at": the driver waits empty before a pickup planned later than the van could be there,
/// never with riders aboard.
@Suite("When the driver leaves for the next stop")
struct LeaveAtTests {
    static let here = try! Coordinate(latitude: 41.31633, longitude: -72.92241)
    static let there = try! Coordinate(latitude: 41.31112, longitude: -72.92880)
    static let t0 = Date(timeIntervalSince1970: 1_795_446_000)  // Monday 10:00 New York

    static func stop(_ ride: Int, _ kind: StopKind, at place: Coordinate, planned: Date, outcome: TapAction? = nil, departed: Date? = nil) -> RunStop
    {
        RunStop(
            rideID: UUID(uuidString: "00000000-0000-4000-8000-00000000000\(ride)")!, ref: try! RideRef(validating: "ABC-DE\(ride)"),
            rideStatus: .approved, stop: kind, placeName: nil, placeShort: nil, address: nil, coordinate: place, riderName: "Ann R.",
            riderPhone: nil, wheelchair: false, companions: 0, note: nil,
            promise: RidePromise(kind: .pickup, asked: planned.addingTimeInterval(-600), width: 900), plannedAt: planned, arrivedAt: nil,
            departedAt: departed, outcome: outcome, noShowAllowedFrom: nil, lastTap: nil, nextActions: [])
    }

    @Test func anEmptyVanWaitsUntilItMustLeaveAndAVanWithRidersAboardGoesNow() {
        let estimator = TripEstimator()
        let drive = estimator.deadhead(from: Self.here, to: Self.there)
        // Ride 1 dropped off here at 10:00; ride 2's pickup there is planned for 10:30.
        var stops = [
            Self.stop(
                1, .pickup, at: Self.there, planned: Self.t0.addingTimeInterval(-900), outcome: .boarded, departed: Self.t0.addingTimeInterval(-900)),
            Self.stop(1, .dropoff, at: Self.here, planned: Self.t0, outcome: .droppedOff, departed: Self.t0),
            Self.stop(2, .pickup, at: Self.there, planned: Self.t0.addingTimeInterval(1_800)),
            Self.stop(2, .dropoff, at: Self.here, planned: Self.t0.addingTimeInterval(2_400)),
        ]
        #expect(DriverRun.leaveAt(stops, estimator: estimator, now: Self.t0) == Self.t0.addingTimeInterval(1_800 - drive))
        // Once it is time, go now.
        #expect(DriverRun.leaveAt(stops, estimator: estimator, now: Self.t0.addingTimeInterval(1_800 - drive)) == nil)
        // With ride 1 still aboard, never wait for a pickup: the van goes now.
        stops[1] = Self.stop(1, .dropoff, at: Self.here, planned: Self.t0.addingTimeInterval(3_000))
        stops.swapAt(1, 2)
        #expect(DriverRun.leaveAt(stops, estimator: estimator, now: Self.t0) == nil)
    }
}
