import Foundation
import VanDomain

/// The scheduler's view of a ride that holds a van: its van, its planned stops, what it needs
/// aboard and what it was promised. A van's rides in the order of their planned stops are its route.
public struct BookedRide: Hashable, Sendable {
    /// The ride's id, so a request can exclude the ride it re-times.
    public var id: UUID
    /// The van the ride holds.
    public var vanID: Int64
    /// When the van is planned at the pickup.
    public var pickupAt: Date
    /// When the van is planned at the drop-off.
    public var dropoffAt: Date
    /// Where the rider is picked up, when known.
    public var pickup: Coordinate?
    /// Where the rider is dropped off, when known.
    public var dropoff: Coordinate?
    /// Whether the rider takes a wheelchair position.
    public var wheelchair: Bool
    /// Companions riding along.
    public var companions: Int
    /// The promised window.
    public var promise: RidePromise
    /// The longest the ride may take, pickup to drop-off.
    public var maxRideTime: TimeInterval
    /// A driver's tap stands at the pickup (the van is there, or the rider aboard): the ride stays
    /// on its van at its planned times, and no stop is planned before its pickup. Improvement
    /// treats it like a ride about to start (``Scheduler/improve(stretch:vans:rides:lockBefore:seed:maxIterations:progress:)``).
    public var underWay = false
    /// A dispatcher put the ride on this van (``RouteRequest/locked``): improvement and re-planning
    /// from the road may re-time it within its promise, but never move it to another van, until she
    /// lets it go.
    public var vanPinned = false

    /// Creates a booked ride; by default promised exactly its planned pickup, with no ride-time limit.
    public init(
        id: UUID, vanID: Int64, pickupAt: Date, dropoffAt: Date, pickup: Coordinate? = nil, dropoff: Coordinate? = nil,
        wheelchair: Bool = false, companions: Int = 0, promise: RidePromise? = nil, maxRideTime: TimeInterval = .infinity
    ) {
        self.id = id
        self.vanID = vanID
        self.pickupAt = pickupAt
        self.dropoffAt = dropoffAt
        self.pickup = pickup
        self.dropoff = dropoff
        self.wheelchair = wheelchair
        self.companions = companions
        self.promise = promise ?? RidePromise(kind: .pickup, window: DateInterval(start: pickupAt, duration: 0))
        self.maxRideTime = maxRideTime
    }

    /// The scheduler's view of `ride`, or `nil` when it holds no van (no van assigned, or a
    /// status other than pending or approved).
    public init?(_ ride: Ride) {
        guard ride.status.holdsVan, let vanID = ride.vanID else { return nil }
        self.init(
            id: ride.id, vanID: vanID, pickupAt: ride.pickupAt, dropoffAt: max(ride.pickupAt, ride.estimatedDropoffAt),
            pickup: ride.pickup.coordinate, dropoff: ride.dropoff.coordinate,
            wheelchair: ride.needsWheelchair, companions: ride.companions, promise: ride.promise, maxRideTime: ride.maxRideTime
        )
    }
}
