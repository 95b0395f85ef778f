extension RouteEvaluator {
    /// The route's earliest schedule: every stop served as early as it can be, or why no
    /// schedule exists. For riders, whose promise starts at the window's start: with no depot
    /// legs to save, serving early never costs anything and keeps the times they were told.
    public func earliestSchedule(for route: VehicleRoute) -> Result<RouteSchedule, RouteViolation> {
        guard problem.vehicles.indices.contains(route.vehicle) else { return .failure(.wrongVehicle(route.vehicle)) }
        var timing = RouteTiming()
        var loads: [Capacity] = []
        var pickupPosition = Array(repeating: -1, count: problem.requests.count)
        if let violation = timing.layout(codes: route.stops.map(\.code), vehicle: problem.vehicles[route.vehicle],
                                         tables: problem.tables, loads: &loads, pickupPosition: &pickupPosition) {
            return .failure(violation)
        }
        if route.stops.isEmpty {
            let time = timing.lo[0].isFinite ? timing.lo[0] : 0
            return .success(RouteSchedule(departure: time, serviceStart: [], arrival: time, loadAfter: [], cost: 0))
        }
        if let violation = timing.solveEarliest() { return .failure(violation) }
        let last = timing.last
        return .success(RouteSchedule(
            departure: timing.times[0], serviceStart: Array(timing.times[1..<last]), arrival: timing.times[last],
            loadAfter: Array(loads[1..<last]), cost: route.cost(in: problem)
        ))
    }
}
