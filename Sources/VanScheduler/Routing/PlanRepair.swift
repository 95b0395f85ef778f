/// Puts pending requests back into a plan one at a time: the cheapest first
/// (greedy), or the one that would lose most by waiting (regret-k).
///
/// Each request's best insertion per route is cached and recomputed only for
/// the route that just changed, as in Ropke and Pisinger's ALNS.
struct PlanRepair: Sendable {
    var search = InsertionSearch()
    private var options: [InsertionCandidate?] = []
    /// Cost used for choosing (true cost plus optional noise), `.infinity` when infeasible.
    private var scores: [Double] = []

    init() {}

    /// Inserts as many of `requests` as fit; returns those that fit nowhere,
    /// or nil if a route came out infeasible (a bug guard: discard the plan then).
    ///
    /// - Parameters:
    ///   - regret: 1 for greedy, k >= 2 for regret-k.
    ///   - noise: amplitude of uniform noise added to each insertion cost (0 for none).
    mutating func insert(
        _ requests: [Int],
        into plan: inout PlanState,
        problem: RoutingProblem,
        regret: Int,
        noise: Double,
        random: inout RoutingRandom,
        pickupPosition: inout [Int]
    ) -> [Int]? {
        let routeCount = plan.routes.count
        var pending = requests
        options = Array(repeating: nil, count: pending.count * routeCount)
        scores = Array(repeating: .infinity, count: pending.count * routeCount)
        for slot in pending.indices {
            for route in 0..<routeCount {
                evaluate(
                    slot: slot, request: pending[slot], route: route, plan: plan, problem: problem,
                    noise: noise, random: &random)
            }
        }
        var alive = Array(repeating: true, count: pending.count)
        var aliveCount = pending.count
        var leftover: [Int] = []
        let depth = max(regret, 1)
        var smallest = [Double](repeating: .infinity, count: depth)

        while aliveCount > 0 {
            var chosen = -1
            var chosenRoute = -1
            var chosenScore = -Double.infinity
            var chosenCost = Double.infinity
            for slot in pending.indices where alive[slot] {
                for index in 0..<depth { smallest[index] = .infinity }
                var bestRoute = -1
                for route in 0..<routeCount {
                    let score = scores[slot * routeCount + route]
                    guard score < smallest[depth - 1] else { continue }
                    if score < smallest[0] { bestRoute = route }
                    var index = depth - 1
                    while index > 0, smallest[index - 1] > score {
                        smallest[index] = smallest[index - 1]
                        index -= 1
                    }
                    smallest[index] = score
                }
                if bestRoute < 0 {
                    alive[slot] = false
                    aliveCount -= 1
                    leftover.append(pending[slot])
                    continue
                }
                let first = smallest[0]
                var value = -first
                if depth > 1 {
                    value = 0
                    for index in 1..<depth {
                        // A request with fewer feasible routes than k is more urgent.
                        value += smallest[index].isFinite ? smallest[index] - first : 1e7
                    }
                }
                if value > chosenScore || (value == chosenScore && first < chosenCost) {
                    chosen = slot
                    chosenRoute = bestRoute
                    chosenScore = value
                    chosenCost = first
                }
            }
            guard chosen >= 0 else { break }
            let request = pending[chosen]
            guard let option = options[chosen * routeCount + chosenRoute],
                plan.insert(
                    request, route: chosenRoute, at: option, problem: problem,
                    pickupPosition: &pickupPosition)
            else {
                return nil
            }
            alive[chosen] = false
            aliveCount -= 1
            for slot in pending.indices where alive[slot] {
                evaluate(
                    slot: slot, request: pending[slot], route: chosenRoute, plan: plan, problem: problem,
                    noise: noise, random: &random)
            }
        }
        pending.removeAll()
        return leftover
    }

    private mutating func evaluate(
        slot: Int, request: Int, route: Int, plan: PlanState,
        problem: RoutingProblem, noise: Double, random: inout RoutingRandom
    ) {
        let index = slot * plan.routes.count + route
        let option = search.best(request: request, in: plan.routes, at: route, problem: problem)
        options[index] = option
        guard let option else {
            scores[index] = .infinity
            return
        }
        var score = option.cost
        if noise > 0 {
            score = max(0, score + (random.unit() * 2 - 1) * noise)
        }
        scores[index] = score
    }
}
