import Foundation
import VanDomain

/// A feasible placement of a ride: which van, its planned stops, its promise, and the van's
/// other rides re-planned around it (inside their own promises).
public struct Assignment: Hashable, Sendable {
    /// The van that takes the ride.
    public var vanID: Int64
    /// The planned pickup.
    public var pickupAt: Date
    /// The planned arrival at the drop-off.
    public var dropoffAt: Date
    /// Added waiting on the van's route, in seconds: among equally short routes, less wins.
    public var idleGap: TimeInterval
    /// What the rider is promised.
    public var promise: RidePromise
    /// The longest the ride may take.
    public var maxRideTime: TimeInterval
    /// Added driving, in seconds.
    public var addedDriving: TimeInterval
    /// New planned times of the van's other rides whose times change, by ride id.
    public var replanned: [UUID: PlannedStops]
    /// The service day of the route (the date its stretch of service starts).
    public var serviceDay: LocalDate?
    /// The span of time this placement changes on the van's route: the new ride's stops and every
    /// re-planned stop, at their old and new times. A writer locks the van-days around it.
    public var changes: DateInterval
    /// The change comes close to the edge of the routes the scheduler planned on (a stretch cut
    /// short by ``Scheduler/routeReach``), where rides it was not given might be affected: plan
    /// again with a longer reach before writing it.
    public var nearRouteEdge = false
    /// The new ride's pickup is the first stop of its van's route, or its drop-off the last, as the
    /// scheduler saw the routes: where a route was cut short, the stop before or after it was not seen.
    var opensRoute = false, closesRoute = false

    /// Creates an assignment.
    public init(
        vanID: Int64, pickupAt: Date, dropoffAt: Date, idleGap: TimeInterval, promise: RidePromise? = nil,
        maxRideTime: TimeInterval = .infinity, addedDriving: TimeInterval = 0, replanned: [UUID: PlannedStops] = [:]
    ) {
        self.vanID = vanID
        self.pickupAt = pickupAt
        self.dropoffAt = dropoffAt
        self.idleGap = idleGap
        self.promise = promise ?? RidePromise(kind: .pickup, window: DateInterval(start: pickupAt, duration: 0))
        self.maxRideTime = maxRideTime
        self.addedDriving = addedDriving
        self.replanned = replanned
        self.changes = DateInterval(start: min(pickupAt, dropoffAt), end: max(pickupAt, dropoffAt))
    }
}

/// A ride's planned pickup and drop-off.
public struct PlannedStops: Hashable, Sendable {
    /// The planned pickup.
    public var pickupAt: Date
    /// The planned arrival at the drop-off.
    public var dropoffAt: Date

    /// Planned stops.
    public init(pickupAt: Date, dropoffAt: Date) {
        self.pickupAt = pickupAt
        self.dropoffAt = dropoffAt
    }
}

extension Assignment {
    /// `rides` with `request` booked here as ride `id`: the rides this placement re-plans at their
    /// new times, and the new ride on its van under its promise. What a caller that keeps a day in
    /// memory (a benchmark, a test) does where vand writes the rows.
    public func booking(_ request: RideRequest, id: UUID, into rides: [BookedRide]) -> [BookedRide] {
        var rides = rides
        for index in rides.indices {
            guard let planned = replanned[rides[index].id] else { continue }
            rides[index].pickupAt = planned.pickupAt
            rides[index].dropoffAt = planned.dropoffAt
        }
        rides.append(
            BookedRide(
                id: id, vanID: vanID, pickupAt: pickupAt, dropoffAt: dropoffAt, pickup: request.pickup, dropoff: request.dropoff,
                wheelchair: request.wheelchair, companions: request.companions, promise: promise, maxRideTime: maxRideTime
            ))
        return rides
    }
}
