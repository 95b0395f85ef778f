/// Decides exactly whether routes can be driven, and plans their times.
///
/// Exact: the route's timing constraints form a simple temporal network, solved
/// by a Bellman–Ford specialised to the route (see `RouteTiming`), not by the
/// eight-step forward-slack heuristic, which misses feasible schedules in corner cases.
public struct RouteEvaluator: Sendable {
    /// The problem the routes belong to.
    public let problem: RoutingProblem

    /// An evaluator for routes of `problem`.
    public init(problem: RoutingProblem) {
        self.problem = problem
    }

    /// The route's schedule, or why no schedule exists.
    ///
    /// The schedule leaves the depot as late as possible and serves every stop
    /// as early as possible after that, which minimises the route's duration.
    /// With `earliest`, every stop is served as early as it can be instead: for riders,
    /// whose promise starts at the window's start, when the depot legs cost nothing.
    ///
    /// With `unhurried` (a margin in engine seconds), that earliest schedule then has the van
    /// wait empty rather than with riders aboard (``RouteTiming/moveWaitsOutOfTheVan(loads:margin:)``):
    /// a stretch that would end standing at a stop for its window starts later instead, keeping
    /// the margin before each of its windows' ends. A stretch that starts before `unhurriedFrom`
    /// stays as early as it can be.
    public func schedule(
        for route: VehicleRoute, earliest: Bool = false, unhurried margin: Double? = nil, unhurriedFrom: Double = -.infinity
    ) -> Result<RouteSchedule, RouteViolation> {
        guard problem.vehicles.indices.contains(route.vehicle) else { return .failure(.wrongVehicle(route.vehicle)) }
        var timing = RouteTiming()
        var loads: [Capacity] = []
        var latest: [Double] = []
        var pickupPosition = Array(repeating: -1, count: problem.requests.count)
        if let violation = timing.layout(
            codes: route.stops.map(\.code), vehicle: problem.vehicles[route.vehicle],
            tables: problem.tables, loads: &loads, pickupPosition: &pickupPosition)
        {
            return .failure(violation)
        }
        if route.stops.isEmpty {
            let time = timing.lo[0].isFinite ? timing.lo[0] : 0
            return .success(RouteSchedule(departure: time, serviceStart: [], arrival: time, loadAfter: [], cost: 0))
        }
        if let violation = timing.solveEarliest() { return .failure(violation) }
        guard timing.solveLatest(into: &latest) else { return .failure(.inconsistentTimes) }
        // Leave as late as possible, then as early as possible: the shortest duration.
        if !earliest, latest[0].isFinite {
            timing.times[0] = max(timing.times[0], latest[0])
            if let violation = timing.solveLeast(from: 0, dirtyThrough: timing.last) { return .failure(violation) }
        }
        let last = timing.last
        if !timing.times[0].isFinite {
            // No window bounds the departure: leave just in time for the first stop (or at 0).
            let first = timing.times[1]
            timing.times[0] = first.isFinite ? first - timing.service[0] - timing.leg[0] : 0
            if let violation = timing.solveLeast(from: 0, dirtyThrough: last) { return .failure(violation) }
        }
        if let margin { timing.moveWaitsOutOfTheVan(loads: loads, margin: margin, from: unhurriedFrom) }
        return .success(
            RouteSchedule(
                departure: timing.times[0],
                serviceStart: Array(timing.times[1..<last]),
                arrival: timing.times[last],
                loadAfter: Array(loads[1..<last]),
                cost: route.cost(in: problem)
            ))
    }

    /// Whether the route can be driven within every constraint.
    public func isFeasible(_ route: VehicleRoute) -> Bool {
        guard problem.vehicles.indices.contains(route.vehicle) else { return false }
        var timing = RouteTiming()
        var loads: [Capacity] = []
        var pickupPosition = Array(repeating: -1, count: problem.requests.count)
        if timing.layout(
            codes: route.stops.map(\.code), vehicle: problem.vehicles[route.vehicle],
            tables: problem.tables, loads: &loads, pickupPosition: &pickupPosition) != nil
        {
            return false
        }
        return route.stops.isEmpty || timing.solveEarliest() == nil
    }

    /// Every problem with a plan: per-route violations, requests served twice or missing.
    public func violations(in plan: RoutePlan) -> [RouteViolation] {
        var found: [RouteViolation] = []
        var seen = Array(repeating: 0, count: problem.requests.count)
        for (index, route) in plan.routes.enumerated() {
            if route.vehicle != index { found.append(.wrongVehicle(route.vehicle)) }
            if case .failure(let violation) = schedule(for: route) { found.append(violation) }
            for stop in route.stops where stop.kind == .pickup && seen.indices.contains(stop.request) {
                seen[stop.request] += 1
            }
        }
        if plan.routes.count != problem.vehicles.count { found.append(.wrongVehicle(plan.routes.count)) }
        for request in plan.unassigned where seen.indices.contains(request) {
            seen[request] += 1
        }
        for (request, times) in seen.enumerated() {
            if times == 0 { found.append(.missingRequest(request)) }
            if times > 1 { found.append(.servedTwice(request)) }
        }
        return found
    }
}
