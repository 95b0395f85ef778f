import Foundation

/// A ride someone wants to book or re-time, as the scheduler needs it.
public struct RideRequest: Hashable, Sendable {
    /// Where the rider is picked up; `nil` for a free-text address with no known position.
    public var pickup: Coordinate?
    /// Where the rider is dropped off; `nil` when unknown.
    public var dropoff: Coordinate?
    /// Whether the rider needs a wheelchair position.
    public var wheelchair: Bool
    /// The time asked for: the pickup time, or the arrival time when `promise` is `.arriveBy`.
    public var pickupAt: Date
    /// Whether the rider asked to be picked up at `pickupAt` or to arrive by it.
    public var promise: RidePromise.Kind
    /// Companions riding along (each takes a seat).
    public var companions: Int
    /// A booked ride to ignore, so re-timing a ride does not collide with its own current slot.
    public var excludingRideID: UUID?
    /// Only consider this van (a dispatcher's choice); `nil` lets the scheduler pick.
    public var vanID: Int64?
    /// Never suggest a pickup before this (e.g. now); `nil` for no bound. Stops planned before it
    /// plus the scheduler's `lockLead` are not moved.
    public var notBefore: Date?
    /// Never suggest a pickup after this (e.g. the end of the booking horizon); `nil` for no bound.
    public var notAfter: Date?

    /// Creates a request.
    public init(
        pickup: Coordinate?,
        dropoff: Coordinate?,
        wheelchair: Bool = false,
        pickupAt: Date,
        promise: RidePromise.Kind = .pickup,
        companions: Int = 0,
        excludingRideID: UUID? = nil,
        vanID: Int64? = nil,
        notBefore: Date? = nil,
        notAfter: Date? = nil
    ) {
        self.pickup = pickup
        self.dropoff = dropoff
        self.wheelchair = wheelchair
        self.pickupAt = pickupAt
        self.promise = promise
        self.companions = companions
        self.excludingRideID = excludingRideID
        self.vanID = vanID
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}
