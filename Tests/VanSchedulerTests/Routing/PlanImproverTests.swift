import Testing
import VanScheduler

@Suite("Plan improver")
struct PlanImproverTests {
    @Test("never drops a request, never infeasible, never costlier", arguments: [true, false])
    func improverProperties(metric: Bool) {
        var random = RoutingRandom(seed: metric ? 31 : 32)
        for trial in 0..<12 {
            let problem = RandomProblems.make(
                requests: 6 + random.below(8), vehicles: 2 + random.below(2),
                metric: metric, random: &random)
            let insertion = CheapestInsertion(problem: problem)
            let start = insertion.constructedPlan(regret: 1 + random.below(3))
            let improved = PlanImprover(problem: problem).improve(start, seed: UInt64(trial), limit: .iterations(150))
            let evaluator = RouteEvaluator(problem: problem)
            #expect(evaluator.violations(in: start).isEmpty)
            #expect(evaluator.violations(in: improved).isEmpty, "trial \(trial)")
            #expect(Set(improved.unassigned).isSubset(of: Set(start.unassigned)), "trial \(trial) dropped a request")
            #expect(
                improved.cost(in: problem) <= start.cost(in: problem) + 1e-9
                    || improved.unassigned.count < start.unassigned.count)
            for route in improved.routes {
                #expect(Oracle.minimumDuration(problem, vehicle: route.vehicle, stops: route.stops) != nil)
            }
        }
    }

    @Test("locked requests stay where they are")
    func lockedRequestsStay() {
        var random = RoutingRandom(seed: 41)
        let base = RandomProblems.make(requests: 8, vehicles: 2, metric: true, random: &random)
        let insertion = CheapestInsertion(problem: base)
        let start = insertion.constructedPlan()
        let lockedRequests = Set(start.routes.flatMap { $0.stops.prefix(2).map(\.request) })
        let problem = RoutingProblem(
            nodes: base.nodes,
            requests: base.requests.enumerated().map { index, request in
                var request = request
                request.locked = lockedRequests.contains(index)
                return request
            },
            vehicles: base.vehicles, travel: base.travel)
        let improved = PlanImprover(problem: problem).improve(start, seed: 7, limit: .iterations(200))
        for request in lockedRequests {
            let before = start.routes.first { $0.stops.contains(.pickup(request)) }!
            let after = improved.routes.first { $0.stops.contains(.pickup(request)) }
            #expect(after?.vehicle == before.vehicle)
            let order = { (route: VehicleRoute) in route.stops.filter { lockedRequests.contains($0.request) } }
            #expect(after.map(order) == order(before))
        }
    }

    @Test("same seed and iteration count give the same plan")
    func deterministic() throws {
        let problem = try FixtureInstance.load("a2-16").problem
        let insertion = CheapestInsertion(problem: problem)
        let start = insertion.constructedPlan()
        let first = PlanImprover(problem: problem).improve(start, seed: 99, limit: .iterations(300))
        let second = PlanImprover(problem: problem).improve(start, seed: 99, limit: .iterations(300))
        #expect(first == second)
        #expect(first.cost(in: problem) <= start.cost(in: problem))
    }
}
