import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct RideTests {

    @Test func applyMovesThroughTheLifecycle() throws {
        var ride = try Ride.sample()
        try ride.apply(.approved)
        #expect(ride.status == .approved)
        let later = utc("2026-11-18T16:20:00Z")
        try ride.apply(.completed, at: later)
        #expect(ride.status == .completed)
        #expect(ride.updatedAt == later)
    }

    @Test func refusedApplyLeavesTheRideUnchanged() throws {
        var ride = try Ride.sample(status: .rejected)
        let before = ride
        #expect(throws: RideTransitionError(from: .rejected, to: .approved)) {
            try ride.apply(.approved, at: utc("2026-11-18T16:20:00Z"))
        }
        #expect(ride == before)
    }

    @Test func occupiesVanFromPickupToDropoff() throws {
        let ride = try Ride.sample()
        #expect(ride.occupiedInterval == DateInterval(start: ride.pickupAt, end: ride.estimatedDropoffAt))
        #expect(ride.seatsNeeded == 2)
    }

    @Test func roundTripsThroughJSON() throws {
        let ride = try Ride.sample()
        #expect(try JSONDecoder().decode(Ride.self, from: JSONEncoder().encode(ride)) == ride)
    }

    @Test func endpointDisplayNamePrefersPlaceThenAddressThenCoordinate() throws {
        let point = try Coordinate(latitude: 41.3114, longitude: -72.9262)
        #expect(RideEndpoint(address: "180 York St", coordinate: point, placeName: "SCL").displayName == "SCL")
        #expect(RideEndpoint(address: "180 York St", coordinate: point, placeName: "  ").displayName == "180 York St")
        #expect(RideEndpoint(coordinate: point).displayName == "41.31140, -72.92620")
        #expect(RideEndpoint().isEmpty)
        #expect(!RideEndpoint(coordinate: point).isEmpty)
    }
}
