import Testing
import VanScheduler

@Suite("Route evaluator against brute force")
struct RouteEvaluatorTests {
    @Test("feasibility agrees with Floyd–Warshall on every stop order", arguments: [true, false])
    func feasibilityMatchesOracle(metric: Bool) {
        var random = RoutingRandom(seed: metric ? 11 : 12)
        var feasibleCount = 0
        var infeasibleCount = 0
        for trial in 0..<160 {
            let requests = trial < 150 ? 3 : 4
            let problem = RandomProblems.make(requests: requests, vehicles: 1, metric: metric, random: &random)
            let evaluator = RouteEvaluator(problem: problem)
            for stops in Oracle.orders(of: Array(0..<requests)) {
                let route = VehicleRoute(vehicle: 0, stops: stops)
                let expected = Oracle.minimumDuration(problem, vehicle: 0, stops: stops)
                #expect(evaluator.isFeasible(route) == (expected != nil), "trial \(trial) \(stops)")
                switch evaluator.schedule(for: route) {
                case .success(let schedule):
                    feasibleCount += 1
                    #expect(expected != nil)
                    if let expected { #expect(abs(schedule.duration - expected) < 1e-6, "duration not minimal") }
                    #expect(respectsConstraints(schedule, route: route, problem: problem))
                case .failure:
                    infeasibleCount += 1
                    #expect(expected == nil, "trial \(trial) \(stops)")
                }
            }
        }
        print("orders: \(feasibleCount) feasible, \(infeasibleCount) infeasible")
        #expect(feasibleCount > 100 && infeasibleCount > 100, "instances should mix feasible and infeasible orders")
    }

    @Test("structural problems are reported")
    func structuralViolations() {
        var random = RoutingRandom(seed: 3)
        let problem = RandomProblems.make(requests: 2, vehicles: 1, metric: true, random: &random)
        let evaluator = RouteEvaluator(problem: problem)
        let backwards = VehicleRoute(vehicle: 0, stops: [.dropoff(0), .pickup(0)])
        #expect(throws: RouteViolation.dropoffBeforePickup(0)) { try evaluator.schedule(for: backwards).get() }
        let twice = VehicleRoute(vehicle: 0, stops: [.pickup(1), .pickup(1), .dropoff(1)])
        #expect(throws: RouteViolation.malformedRequest(1)) { try evaluator.schedule(for: twice).get() }
        let unfinished = VehicleRoute(vehicle: 0, stops: [.pickup(1)])
        #expect(throws: RouteViolation.malformedRequest(1)) { try evaluator.schedule(for: unfinished).get() }
        let missing = RoutePlan(routes: [VehicleRoute(vehicle: 0)], unassigned: [0])
        #expect(evaluator.violations(in: missing) == [.missingRequest(1)])
    }

    @Test("a route without any window gets a finite schedule")
    func unboundedWindows() throws {
        let points: [(x: Double, y: Double)] = [(0, 0), (0, 0), (3, 4), (6, 8)]
        let problem = RoutingProblem(
            nodes: Array(repeating: RouteNode(serviceDuration: 1), count: 4),
            requests: [RouteRequest(pickup: 2, dropoff: 3, load: Capacity(seats: 1))],
            vehicles: [RouteVehicle(capacity: Capacity(seats: 1), startDepot: 0, endDepot: 1)],
            travel: TravelMatrix(euclidean: points)
        )
        let route = VehicleRoute(vehicle: 0, stops: [.pickup(0), .dropoff(0)])
        let schedule = try RouteEvaluator(problem: problem).schedule(for: route).get()
        #expect(schedule.departure.isFinite && schedule.arrival.isFinite)
        #expect(abs(schedule.duration - (5 + 1 + 5 + 1 + 10 + 1)) < 1e-9)
        #expect(abs(schedule.cost - 20) < 1e-9)
    }

    /// Checks a schedule directly against every constraint of the definition.
    private func respectsConstraints(_ schedule: RouteSchedule, route: VehicleRoute, problem: RoutingProblem) -> Bool {
        let tolerance = 1e-6
        let car = problem.vehicles[route.vehicle]
        let nodes = [car.startDepot] + route.stops.map { problem.node(of: $0) } + [car.endDepot]
        let times = [schedule.departure] + schedule.serviceStart + [schedule.arrival]
        for (k, node) in nodes.enumerated() {
            var window = problem.nodes[node].window
            if k == 0 || k == nodes.count - 1 { window = window.intersection(car.availability) }
            if times[k] < window.earliest - tolerance || times[k] > window.latest + tolerance { return false }
            if k > 0 {
                let ready = times[k - 1] + problem.nodes[nodes[k - 1]].serviceDuration + problem.travel.time(nodes[k - 1], node)
                if times[k] < ready - tolerance { return false }
            }
        }
        for (index, stop) in route.stops.enumerated() where stop.kind == .pickup {
            let drop = route.stops.firstIndex(of: .dropoff(stop.request))!
            let ride = times[drop + 1] - times[index + 1] - problem.nodes[nodes[index + 1]].serviceDuration
            if ride > problem.requests[stop.request].maxRideTime + tolerance { return false }
        }
        return schedule.duration <= car.maxDuration + tolerance
    }
}
