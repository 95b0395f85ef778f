/// Planned times and loads of a feasible route.
///
/// The vehicle leaves its start depot as late as possible and then serves
/// every stop as early as possible, which gives the shortest route duration.
public struct RouteSchedule: Hashable, Sendable {
    /// When the vehicle leaves its start depot.
    public var departure: Double
    /// When service starts at each stop, in stop order.
    public var serviceStart: [Double]
    /// When the vehicle reaches its end depot.
    public var arrival: Double
    /// The load aboard after each stop, in stop order.
    public var loadAfter: [Capacity]
    /// The travel cost of the route.
    public var cost: Double

    /// `arrival - departure`.
    public var duration: Double { arrival - departure }
}
