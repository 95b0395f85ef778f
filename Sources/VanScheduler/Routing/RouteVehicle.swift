/// A vehicle that can drive one route: from its start depot, through stops, to its end depot.
public struct RouteVehicle: Hashable, Sendable {
    /// The most load the vehicle carries at once, per dimension.
    public var capacity: Capacity
    /// The node where the route starts.
    public var startDepot: Int
    /// The node where the route ends.
    public var endDepot: Int
    /// The longest allowed time from leaving the start depot to reaching the end depot.
    public var maxDuration: Double
    /// When the vehicle is in service: it leaves the start depot and reaches the end depot within it.
    public var availability: TimeWindow

    /// A vehicle with a capacity and depots; duration and availability default to unlimited.
    public init(
        capacity: Capacity,
        startDepot: Int,
        endDepot: Int,
        maxDuration: Double = .infinity,
        availability: TimeWindow = .unbounded
    ) {
        self.capacity = capacity
        self.startDepot = startDepot
        self.endDepot = endDepot
        self.maxDuration = maxDuration
        self.availability = availability
    }
}
