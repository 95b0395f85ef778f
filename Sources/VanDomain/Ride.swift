import Foundation

/// One trip request and everything the dispatcher and the trigger loop need to know about it.
public struct Ride: Hashable, Sendable, Codable {
    /// Stable identity, also the public id in the API.
    public var id: UUID
    /// The short reference people say and type (`K7M-3QX`), unique like the id.
    public var ref: RideRef
    /// Who booked it.
    public var netID: NetID
    /// On-demand or scheduled ahead.
    public var kind: RideKind
    /// Where the van picks the rider up.
    public var pickup: RideEndpoint
    /// Where the van drops the rider off.
    public var dropoff: RideEndpoint
    /// When the rider asked.
    public var requestedAt: Date
    /// When the van is planned to be at the pickup (inside the promise for a pickup promise).
    public var pickupAt: Date
    /// When the van is planned to arrive at the drop-off.
    public var estimatedDropoffAt: Date
    /// The window the rider was promised.
    public var promise: RidePromise
    /// The longest the ride may take, pickup to drop-off, in seconds.
    public var maxRideTime: TimeInterval
    /// Whether the rider needs a wheelchair position.
    public var needsWheelchair: Bool
    /// People riding along with the rider, 0 or more.
    public var companions: Int
    /// Where the ride is in its life; change it with `apply(_:)`.
    public var status: RideStatus
    /// The van assigned, if any.
    public var vanID: Int64?
    /// The assigned van's name as read with the ride (nil when no van, or not read).
    public var vanName: String?
    /// The rider's free-text note for the driver.
    public var note: String?
    /// The dispatcher's reason for a rejection, cancellation or re-timing.
    public var reason: String?
    /// Shared by every ride of one weekly recurring booking.
    public var seriesID: UUID?
    /// On a way back booked with its outbound: the outbound ride's id.
    public var returnOf: UUID?
    /// When the row was created.
    public var createdAt: Date
    /// When the row last changed.
    public var updatedAt: Date

    /// Creates a ride; a new booking is normally `pending` with no van yet.
    public init(
        id: UUID,
        ref: RideRef,
        netID: NetID,
        kind: RideKind,
        pickup: RideEndpoint,
        dropoff: RideEndpoint,
        requestedAt: Date,
        pickupAt: Date,
        estimatedDropoffAt: Date,
        promise: RidePromise? = nil,
        maxRideTime: TimeInterval = 3_600,
        needsWheelchair: Bool = false,
        companions: Int = 0,
        status: RideStatus = .pending,
        vanID: Int64? = nil,
        vanName: String? = nil,
        note: String? = nil,
        reason: String? = nil,
        seriesID: UUID? = nil,
        returnOf: UUID? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.ref = ref
        self.netID = netID
        self.kind = kind
        self.pickup = pickup
        self.dropoff = dropoff
        self.requestedAt = requestedAt
        self.pickupAt = pickupAt
        self.estimatedDropoffAt = estimatedDropoffAt
        self.promise = promise ?? RidePromise(kind: .pickup, window: DateInterval(start: pickupAt, duration: 0))
        self.maxRideTime = maxRideTime
        self.needsWheelchair = needsWheelchair
        self.companions = companions
        self.status = status
        self.vanID = vanID
        self.vanName = vanName
        self.note = note
        self.reason = reason
        self.seriesID = seriesID
        self.returnOf = returnOf
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The span the ride keeps its van busy: pickup to estimated drop-off.
    public var occupiedInterval: DateInterval {
        DateInterval(start: pickupAt, end: max(pickupAt, estimatedDropoffAt))
    }

    /// Seats taken: the companions, and the rider unless they use a wheelchair position.
    /// The database says the same with `ride_seats()` (sql/0010); a test keeps them equal.
    public var seatsNeeded: Int { Self.seats(wheelchair: needsWheelchair, companions: companions) }

    /// Wheelchair positions taken (`ride_wheelchair_positions()` in SQL).
    public var wheelchairPositionsNeeded: Int { needsWheelchair ? 1 : 0 }

    /// Seats a rider needs: the companions, plus one unless the rider sits in a wheelchair position.
    public static func seats(wheelchair: Bool, companions: Int) -> Int { max(0, companions) + (wheelchair ? 0 : 1) }

    /// Moves the ride to `next` if the lifecycle allows it; leaves it unchanged otherwise.
    /// - Throws: `RideTransitionError` when the move is refused.
    public mutating func apply(_ next: RideStatus) throws(RideTransitionError) {
        status = try status.transition(to: next)
    }

    /// Like `apply(_:)`, and also stamps `updatedAt` with `now` on success.
    public mutating func apply(_ next: RideStatus, at now: Date) throws(RideTransitionError) {
        try apply(next)
        updatedAt = now
    }
}
