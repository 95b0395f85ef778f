/// A route inside the engine, with the derived data insertion needs kept current.
struct RouteState: Sendable {
    let vehicle: Int
    /// Stop codes in visiting order.
    var codes: [Int]
    var lockedPrefix: Int
    /// The route's positions; `timing.times` holds the earliest (least) service times.
    var timing = RouteTiming()
    /// The latest service times at each position.
    var latest: [Double] = []
    /// The load after each position.
    var loads: [Capacity] = []
    var cost = 0.0
    /// Waiting in the earliest schedule (0 for an unused vehicle).
    var waiting = 0.0

    init(vehicle: Int, codes: [Int], lockedPrefix: Int) {
        self.vehicle = vehicle
        self.codes = codes
        self.lockedPrefix = lockedPrefix
    }

    var earliest: [Double] { timing.times }

    /// Recomputes every derived array exactly; returns why the route is infeasible, if it is.
    mutating func refresh(problem: RoutingProblem, pickupPosition: inout [Int]) -> RouteViolation? {
        let tables = problem.tables
        let vehicle = problem.vehicles[self.vehicle]
        if let violation = timing.layout(
            codes: codes, vehicle: vehicle, tables: tables,
            loads: &loads, pickupPosition: &pickupPosition)
        {
            return violation
        }
        if codes.isEmpty {
            // An unused vehicle drives nothing; keep depot bounds for insertion pruning.
            timing.times[0] = timing.lo[0]
            timing.times[1] = max(timing.lo[1], timing.lo[0] + timing.service[0] + timing.leg[0])
            latest.removeAll(keepingCapacity: true)
            latest.append(contentsOf: timing.hi)
            cost = 0
            waiting = 0
            return nil
        }
        if let violation = timing.solveEarliest() { return violation }
        guard timing.solveLatest(into: &latest) else { return .inconsistentTimes }
        var total = 0.0
        for position in 0..<timing.last {
            total += tables.cost(timing.node[position], timing.node[position + 1])
        }
        cost = total
        waiting = timing.waiting()
        return nil
    }
}
