import Foundation
import Testing
@testable import VanDomain

@Suite struct RideTests {
    static func sample(status: RideStatus = .pending) throws -> Ride {
        let start = utc("2026-11-18T15:00:00Z")
        return Ride(
            id: UUID(uuidString: "6F1B1C1E-0000-4000-8000-000000000001")!,
            netID: try NetID("jd123"),
            kind: .scheduled,
            pickup: RideEndpoint(placeID: 1, placeName: "SSS"),
            dropoff: RideEndpoint(address: "55 Lock St", coordinate: try Coordinate(latitude: 41.317, longitude: -72.93)),
            requestedAt: start,
            pickupAt: start.addingTimeInterval(3_600),
            estimatedDropoffAt: start.addingTimeInterval(4_500),
            companions: 1,
            status: status,
            createdAt: start,
            updatedAt: start
        )
    }

    @Test func applyMovesThroughTheLifecycle() throws {
        var ride = try Self.sample()
        try ride.apply(.approved)
        #expect(ride.status == .approved)
        let later = utc("2026-11-18T16:20:00Z")
        try ride.apply(.completed, at: later)
        #expect(ride.status == .completed)
        #expect(ride.updatedAt == later)
    }

    @Test func refusedApplyLeavesTheRideUnchanged() throws {
        var ride = try Self.sample(status: .rejected)
        let before = ride
        #expect(throws: RideTransitionError(from: .rejected, to: .approved)) {
            try ride.apply(.approved, at: utc("2026-11-18T16:20:00Z"))
        }
        #expect(ride == before)
    }

    @Test func occupiesVanFromPickupToDropoff() throws {
        let ride = try Self.sample()
        #expect(ride.occupiedInterval == DateInterval(start: ride.pickupAt, end: ride.estimatedDropoffAt))
        #expect(ride.seatsNeeded == 2)
    }

    @Test func roundTripsThroughJSON() throws {
        let ride = try Self.sample()
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
