/// A whole plan inside the engine: route states, unassigned requests, and where each request is.
struct PlanState: Sendable {
    var routes: [RouteState]
    var unassigned: [Int]
    /// The route index of each request, -1 when unassigned.
    var routeOf: [Int]
    var cost: Double

    /// Builds the state of a plan; returns nil when any route is infeasible or malformed.
    init?(plan: RoutePlan, problem: RoutingProblem, pickupPosition: inout [Int]) {
        guard plan.routes.count == problem.vehicles.count else { return nil }
        routes = []
        routeOf = Array(repeating: -1, count: problem.requests.count)
        cost = 0
        for (index, route) in plan.routes.enumerated() {
            guard route.vehicle == index else { return nil }
            var state = RouteState(
                vehicle: index, codes: route.stops.map(\.code),
                lockedPrefix: min(route.lockedPrefixCount, route.stops.count))
            guard state.refresh(problem: problem, pickupPosition: &pickupPosition) == nil else { return nil }
            for stop in route.stops where stop.kind == .pickup {
                guard routeOf[stop.request] == -1 else { return nil }
                routeOf[stop.request] = index
            }
            cost += state.cost
            routes.append(state)
        }
        unassigned = []
        for request in problem.requests.indices where routeOf[request] == -1 {
            unassigned.append(request)
        }
    }

    /// The plan as public values.
    var plan: RoutePlan {
        RoutePlan(
            routes: routes.map { state in
                VehicleRoute(
                    vehicle: state.vehicle, stops: state.codes.map(RouteStop.init(code:)),
                    lockedPrefixCount: state.lockedPrefix)
            },
            unassigned: unassigned.sorted()
        )
    }

    /// Takes the given requests off their routes (each route refreshed once).
    mutating func remove(_ requests: [Int], problem: RoutingProblem, pickupPosition: inout [Int]) -> Bool {
        var touched: [Int] = []
        for request in requests {
            let route = routeOf[request]
            guard route >= 0 else { continue }
            routes[route].codes.removeAll { $0 >> 1 == request }
            routeOf[request] = -1
            unassigned.append(request)
            if !touched.contains(route) { touched.append(route) }
        }
        for route in touched {
            cost -= routes[route].cost
            guard routes[route].refresh(problem: problem, pickupPosition: &pickupPosition) == nil else { return false }
            cost += routes[route].cost
        }
        return true
    }

    /// Inserts a request as the candidate says and refreshes the route; false if the result is infeasible.
    mutating func insert(
        _ request: Int, route: Int, at candidate: InsertionCandidate,
        problem: RoutingProblem, pickupPosition: inout [Int]
    ) -> Bool {
        routes[route].codes.insert(request * 2, at: candidate.pickupIndex)
        routes[route].codes.insert(request * 2 + 1, at: candidate.dropoffIndex)
        routeOf[request] = route
        if let index = unassigned.firstIndex(of: request) { unassigned.remove(at: index) }
        cost -= routes[route].cost
        let violation = routes[route].refresh(problem: problem, pickupPosition: &pickupPosition)
        cost += routes[route].cost
        return violation == nil
    }

    /// Recomputes the total cost from the routes (removes drift from repeated updates).
    mutating func recomputeCost() {
        cost = routes.reduce(0) { $0 + $1.cost }
    }
}
