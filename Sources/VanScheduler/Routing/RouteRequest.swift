/// One rider's trip: picked up at one node and dropped off at another by the same vehicle.
public struct RouteRequest: Hashable, Sendable {
    /// The node where the rider boards.
    public var pickup: Int
    /// The node where the rider alights.
    public var dropoff: Int
    /// What the rider occupies while aboard (seats, wheelchair positions).
    public var load: Capacity
    /// The longest allowed time from the end of service at the pickup to the start of service at the drop-off.
    public var maxRideTime: Double
    /// A locked request stays on its vehicle and in its order; improvement never moves it.
    public var locked: Bool

    /// A request between two nodes; `maxRideTime` defaults to unlimited.
    public init(pickup: Int, dropoff: Int, load: Capacity, maxRideTime: Double = .infinity, locked: Bool = false) {
        self.pickup = pickup
        self.dropoff = dropoff
        self.load = load
        self.maxRideTime = maxRideTime
        self.locked = locked
    }
}
