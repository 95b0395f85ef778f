import Foundation
import VanDomain

/// The scheduler's view of a ride that holds a van: which van, when, and where it starts and ends.
public struct BookedRide: Hashable, Sendable, Codable {
    /// The ride's id, so a request can exclude the ride it re-times.
    public var id: UUID
    /// The van the ride holds.
    public var vanID: Int64
    /// When the van is at the pickup.
    public var pickupAt: Date
    /// When the van is free again at the drop-off.
    public var dropoffAt: Date
    /// Where the rider is picked up, when known.
    public var pickup: Coordinate?
    /// Where the rider is dropped off, when known.
    public var dropoff: Coordinate?

    /// Creates a booked ride.
    public init(id: UUID, vanID: Int64, pickupAt: Date, dropoffAt: Date, pickup: Coordinate? = nil, dropoff: Coordinate? = nil) {
        self.id = id
        self.vanID = vanID
        self.pickupAt = pickupAt
        self.dropoffAt = dropoffAt
        self.pickup = pickup
        self.dropoff = dropoff
    }

    /// The scheduler's view of `ride`, or `nil` when it holds no van (no van assigned, or a
    /// status other than pending or approved).
    public init?(_ ride: Ride) {
        guard ride.status.holdsVan, let vanID = ride.vanID else { return nil }
        self.init(
            id: ride.id,
            vanID: vanID,
            pickupAt: ride.pickupAt,
            dropoffAt: max(ride.pickupAt, ride.estimatedDropoffAt),
            pickup: ride.pickup.coordinate,
            dropoff: ride.dropoff.coordinate
        )
    }
}
