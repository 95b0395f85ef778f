/// Adds requests to plans at their cheapest feasible place: booking one ride, or building a plan.
public struct CheapestInsertion: Sendable {
    /// The problem the plans belong to.
    public let problem: RoutingProblem

    /// Insertion for plans of `problem`.
    public init(problem: RoutingProblem) {
        self.problem = problem
    }

    /// The cheapest feasible insertion of a request not yet on any route, over all vehicles.
    ///
    /// Cheapest means least added travel cost, ties broken by least added
    /// waiting, then by lowest vehicle index. Routes of the plan that are
    /// themselves infeasible take nothing. Nil when the request fits nowhere.
    public func bestInsertion(of request: Int, into plan: RoutePlan) -> InsertionOption? {
        guard problem.requests.indices.contains(request),
            !plan.routes.contains(where: { route in route.stops.contains { $0.request == request } })
        else { return nil }
        return PreparedRoutes(plan: plan, problem: problem).bestInsertion(of: request, problem: problem)
    }

    /// Inserts the request at its cheapest feasible place; returns the place, or nil (plan unchanged).
    public func insert(_ request: Int, into plan: inout RoutePlan) -> InsertionOption? {
        guard let option = bestInsertion(of: request, into: plan) else { return nil }
        plan = option.applied(to: plan, request: request)
        return option
    }

    /// Inserts the plan's unassigned requests by regret-k insertion (1: cheapest first).
    ///
    /// Requests that fit nowhere stay unassigned. Deterministic. Returns the
    /// plan unchanged if any of its routes is infeasible.
    public func completed(_ plan: RoutePlan, regret: Int = 2) -> RoutePlan {
        var pickupPosition = Array(repeating: -1, count: problem.requests.count)
        guard var state = PlanState(plan: plan, problem: problem, pickupPosition: &pickupPosition) else { return plan }
        var repair = PlanRepair()
        var random = RoutingRandom(seed: 0)
        let pending = state.unassigned
        guard
            repair.insert(
                pending, into: &state, problem: problem, regret: regret, noise: 0,
                random: &random, pickupPosition: &pickupPosition) != nil
        else { return plan }
        return state.plan
    }

    /// A plan built from nothing by regret-k insertion of every request.
    public func constructedPlan(regret: Int = 2) -> RoutePlan {
        completed(.empty(for: problem), regret: regret)
    }
}
