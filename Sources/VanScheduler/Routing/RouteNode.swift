/// A place a vehicle can serve: a depot, a pickup point or a drop-off point.
public struct RouteNode: Hashable, Sendable {
    /// How long service at the node takes (boarding, alighting).
    public var serviceDuration: Double
    /// When service at the node may *start*; a vehicle arriving early waits.
    public var window: TimeWindow

    /// A node with a service duration and a window on the start of service.
    public init(serviceDuration: Double = 0, window: TimeWindow = .unbounded) {
        self.serviceDuration = serviceDuration
        self.window = window
    }
}
