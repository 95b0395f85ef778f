/// A plan's routes with the timing insertion needs worked out once, so that one request can be
/// tried under many promises (the nearest-feasible-time search) without re-timing every route
/// each time. The routes must not contain the request; its windows may change between tries.
struct PreparedRoutes: Sendable {
    /// The routes that are feasible as they stand, in vehicle order (an infeasible route takes nothing).
    private let states: [RouteState]

    /// Times every route of `plan` under `problem`.
    init(plan: RoutePlan, problem: RoutingProblem) {
        var pickupPosition = Array(repeating: -1, count: problem.requests.count)
        var states: [RouteState] = []
        states.reserveCapacity(plan.routes.count)
        for route in plan.routes where problem.vehicles.indices.contains(route.vehicle) {
            var state = RouteState(
                vehicle: route.vehicle, codes: route.stops.map(\.code),
                lockedPrefix: min(route.lockedPrefixCount, route.stops.count))
            guard state.refresh(problem: problem, pickupPosition: &pickupPosition) == nil else { continue }
            states.append(state)
        }
        self.states = states
    }

    /// The cheapest feasible insertion of `request` over all routes: least added travel cost, ties
    /// broken by least added waiting, then by lowest vehicle index. `problem` differs from the one the routes were timed under at most in the request's own windows
    /// and ride-time limit.
    /// Vehicles in `excluding` take nothing.
    func bestInsertion(of request: Int, problem: RoutingProblem, excluding: Set<Int> = []) -> InsertionOption? {
        var search = InsertionSearch()
        var best: InsertionOption?
        for index in states.indices where !excluding.contains(states[index].vehicle) {
            let limit = best.map { $0.addedCost + 1e-9 } ?? .infinity
            guard let found = search.best(request: request, in: states, at: index, problem: problem, costLimit: limit) else {
                continue
            }
            if let current = best,
                found.cost > current.addedCost - 1e-9,
                found.cost >= current.addedCost + 1e-9 || found.waiting >= current.addedWaiting
            {
                continue
            }
            best = InsertionOption(
                vehicle: states[index].vehicle, pickupIndex: found.pickupIndex,
                dropoffIndex: found.dropoffIndex, addedCost: found.cost, addedWaiting: found.waiting)
        }
        return best
    }
}
