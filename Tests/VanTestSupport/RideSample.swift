import Foundation
import VanDomain

extension Ride {
    /// A pending scheduled ride from Silliman (a known place) to an address, with one companion.
    public static func sample(status: RideStatus = .pending) throws -> Ride {
        let start = utc("2026-11-18T15:00:00Z")
        return Ride(
            id: UUID(uuidString: "6F1B1C1E-0000-4000-8000-000000000001")!,
            ref: try RideRef(validating: "K7M-3QX"),
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
}
