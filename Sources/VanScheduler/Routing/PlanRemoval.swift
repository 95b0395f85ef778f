/// The ways the improver picks requests to take off their routes.
enum RemovalOperator: Int, CaseIterable, Sendable {
    /// Requests chosen uniformly at random.
    case random
    /// Requests whose removal saves most cost, with some randomness.
    case worst
    /// Requests close in space and time to each other (Shaw removal).
    case related
    /// Consecutive stops of one route, then of others.
    case segment
}

/// Chooses requests to remove from a plan.
struct PlanRemoval: Sendable {
    let problem: RoutingProblem
    /// Largest pickup-to-pickup plus drop-off-to-drop-off distance, for normalising relatedness.
    private let distanceScale: Double
    /// Spread of window times, for normalising relatedness.
    private let timeScale: Double
    private var saving: [Double] = []
    private var pickupTime: [Double] = []
    private var dropoffTime: [Double] = []

    init(problem: RoutingProblem) {
        self.problem = problem
        let tables = problem.tables
        let maxCost = tables.costs.reduce(0) { max($0, $1.isFinite ? $1 : 0) }
        distanceScale = max(2 * maxCost, 1e-9)
        var lowest = Double.infinity
        var highest = -Double.infinity
        for node in 0..<tables.nodeCount {
            for value in [tables.earliest[node], tables.latest[node]] where value.isFinite {
                lowest = min(lowest, value)
                highest = max(highest, value)
            }
        }
        timeScale = highest > lowest ? 2 * (highest - lowest) : 1
    }

    /// Requests on routes that the improver may move: not locked, not in a route's fixed prefix.
    func removable(in plan: PlanState) -> [Int] {
        var result: [Int] = []
        for route in plan.routes {
            for index in route.lockedPrefix..<route.codes.count {
                let code = route.codes[index]
                if code & 1 == 0, !problem.tables.locked[code >> 1] { result.append(code >> 1) }
            }
        }
        return result
    }

    /// `count` requests from `candidates` chosen by `kind`.
    mutating func choose(
        _ kind: RemovalOperator,
        count: Int,
        from candidates: [Int],
        plan: PlanState,
        random: inout RoutingRandom
    ) -> [Int] {
        let count = min(count, candidates.count)
        guard count > 0 else { return [] }
        switch kind {
        case .random:
            var pool = candidates
            var chosen: [Int] = []
            for _ in 0..<count {
                chosen.append(pool.swapRemove(at: random.below(pool.count)))
            }
            return chosen
        case .worst:
            computeSavings(plan)
            var pool = candidates.sorted { saving[$0] > saving[$1] }
            var chosen: [Int] = []
            for _ in 0..<count {
                let draw = random.unit()
                let index = Int(draw * draw * draw * Double(pool.count))
                chosen.append(pool.remove(at: index))
            }
            return chosen
        case .related:
            computeTimes(plan)
            var pool = candidates
            var chosen = [pool.swapRemove(at: random.below(pool.count))]
            while chosen.count < count {
                let anchor = chosen[random.below(chosen.count)]
                let keys = pool.map { relatedness(anchor, $0) }
                let order = pool.indices.sorted { keys[$0] < keys[$1] }
                pool = order.map { pool[$0] }
                let draw = random.unit()
                let cube = draw * draw * draw
                let index = Int(cube * cube * Double(pool.count))
                chosen.append(pool.remove(at: index))
            }
            return chosen
        case .segment:
            var allowed = Set(candidates)
            var chosen: [Int] = []
            var routeOrder = Array(plan.routes.indices)
            for index in routeOrder.indices.reversed() {
                routeOrder.swapAt(index, random.below(index + 1))
            }
            for route in routeOrder where chosen.count < count {
                let codes = plan.routes[route].codes
                guard !codes.isEmpty else { continue }
                var position = random.below(codes.count)
                for _ in 0..<codes.count where chosen.count < count {
                    let request = codes[position] >> 1
                    if allowed.remove(request) != nil { chosen.append(request) }
                    position = (position + 1) % codes.count
                }
            }
            return chosen
        }
    }

    private mutating func computeSavings(_ plan: PlanState) {
        let tables = problem.tables
        if saving.count != problem.requests.count { saving = Array(repeating: 0, count: problem.requests.count) }
        for route in plan.routes {
            let nodes = route.timing.node
            var pickupAt: [Int: Int] = [:]
            for position in 1..<max(nodes.count - 1, 1) {
                let code = route.codes[position - 1]
                let request = code >> 1
                if code & 1 == 0 {
                    pickupAt[request] = position
                    continue
                }
                guard let pickup = pickupAt[request] else { continue }
                let value: Double
                if pickup == position - 1 {
                    value =
                        tables.cost(nodes[pickup - 1], nodes[pickup]) + tables.cost(nodes[pickup], nodes[position])
                        + tables.cost(nodes[position], nodes[position + 1]) - tables.cost(nodes[pickup - 1], nodes[position + 1])
                } else {
                    value =
                        tables.cost(nodes[pickup - 1], nodes[pickup]) + tables.cost(nodes[pickup], nodes[pickup + 1])
                        - tables.cost(nodes[pickup - 1], nodes[pickup + 1])
                        + tables.cost(nodes[position - 1], nodes[position]) + tables.cost(nodes[position], nodes[position + 1])
                        - tables.cost(nodes[position - 1], nodes[position + 1])
                }
                saving[request] = value
            }
        }
    }

    private mutating func computeTimes(_ plan: PlanState) {
        if pickupTime.count != problem.requests.count {
            pickupTime = Array(repeating: 0, count: problem.requests.count)
            dropoffTime = pickupTime
        }
        for route in plan.routes {
            for (index, code) in route.codes.enumerated() {
                if code & 1 == 0 {
                    pickupTime[code >> 1] = route.timing.times[index + 1]
                } else {
                    dropoffTime[code >> 1] = route.timing.times[index + 1]
                }
            }
        }
    }

    private func relatedness(_ first: Int, _ second: Int) -> Double {
        let tables = problem.tables
        let distance =
            tables.cost(tables.pickupNode[first], tables.pickupNode[second])
            + tables.cost(tables.dropoffNode[first], tables.dropoffNode[second])
        let time = abs(pickupTime[first] - pickupTime[second]) + abs(dropoffTime[first] - dropoffTime[second])
        return 9 * distance / distanceScale + 3 * time / timeScale
    }
}

extension Array {
    /// Removes the element at `index` by moving the last element into its place (O(1)).
    mutating func swapRemove(at index: Int) -> Element {
        swapAt(index, count - 1)
        return removeLast()
    }
}
