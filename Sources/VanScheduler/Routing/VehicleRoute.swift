/// The ordered stops one vehicle serves; depots are implied at both ends.
public struct VehicleRoute: Hashable, Sendable {
    /// The vehicle driving the route (index into `RoutingProblem.vehicles`).
    public var vehicle: Int
    /// The stops in visiting order.
    public var stops: [RouteStop]
    /// How many leading stops are fixed (already driven); nothing is inserted before them.
    public var lockedPrefixCount: Int

    /// A route for a vehicle.
    public init(vehicle: Int, stops: [RouteStop] = [], lockedPrefixCount: Int = 0) {
        self.vehicle = vehicle
        self.stops = stops
        self.lockedPrefixCount = lockedPrefixCount
    }

    /// The travel cost of the route, depot to depot; an unused vehicle costs nothing.
    public func cost(in problem: RoutingProblem) -> Double {
        guard !stops.isEmpty else { return 0 }
        let vehicle = problem.vehicles[vehicle]
        var previous = vehicle.startDepot
        var total = 0.0
        for stop in stops {
            let node = problem.node(of: stop)
            total += problem.travel.cost(previous, node)
            previous = node
        }
        return total + problem.travel.cost(previous, vehicle.endDepot)
    }
}
