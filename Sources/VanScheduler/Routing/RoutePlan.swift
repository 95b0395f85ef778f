/// A route for every vehicle, and the requests left unserved.
public struct RoutePlan: Hashable, Sendable {
    /// One route per vehicle, `routes[v].vehicle == v`.
    public var routes: [VehicleRoute]
    /// Requests on no route.
    public var unassigned: [Int]

    /// A plan from routes and unassigned requests.
    public init(routes: [VehicleRoute], unassigned: [Int]) {
        self.routes = routes
        self.unassigned = unassigned
    }

    /// A plan with every vehicle idle and every request unassigned.
    public static func empty(for problem: RoutingProblem) -> RoutePlan {
        RoutePlan(
            routes: problem.vehicles.indices.map { VehicleRoute(vehicle: $0) },
            unassigned: Array(problem.requests.indices)
        )
    }

    /// The total travel cost of all routes.
    public func cost(in problem: RoutingProblem) -> Double {
        routes.reduce(0) { $0 + $1.cost(in: problem) }
    }

    /// How many requests are on a route.
    public var servedCount: Int {
        routes.reduce(0) { $0 + $1.stops.count } / 2
    }

    /// How many vehicles have at least one stop.
    public var vehiclesUsed: Int {
        routes.filter { !$0.stops.isEmpty }.count
    }
}
