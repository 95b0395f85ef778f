import Testing
import VanScheduler

@Suite("Cheapest insertion against brute force")
struct CheapestInsertionTests {
    @Test("finds the true cheapest feasible insertion", arguments: [true, false])
    func cheapestMatchesOracle(metric: Bool) {
        var random = RoutingRandom(seed: metric ? 21 : 22)
        var found = 0
        var none = 0
        for trial in 0..<150 {
            let requests = 2 + random.below(5)
            let problem = RandomProblems.make(requests: requests, vehicles: 2, metric: metric, random: &random)
            let newcomer = requests - 1
            // Spread the other requests over the vehicles in a random feasible order, if one exists.
            var routes = [VehicleRoute(vehicle: 0), VehicleRoute(vehicle: 1)]
            var unassigned = [newcomer]
            var groups: [[Int]] = [[], []]
            for request in 0..<newcomer {
                let vehicle = random.below(2)
                if groups[vehicle].count < 3 { groups[vehicle].append(request) } else { unassigned.append(request) }
            }
            for vehicle in 0..<2 {
                let feasible = Oracle.orders(of: groups[vehicle]).filter {
                    Oracle.minimumDuration(problem, vehicle: vehicle, stops: $0) != nil
                }
                if feasible.isEmpty {
                    unassigned += groups[vehicle]
                } else {
                    routes[vehicle].stops = feasible[random.below(feasible.count)]
                    routes[vehicle].lockedPrefixCount = random.below(3) == 0 ? random.below(routes[vehicle].stops.count + 1) : 0
                }
            }
            let plan = RoutePlan(routes: routes, unassigned: unassigned)

            var expected: Double?
            for route in routes {
                let stops = route.stops
                for pickup in route.lockedPrefixCount...stops.count {
                    for dropoff in (pickup + 1)...(stops.count + 1) {
                        var trialStops = stops
                        trialStops.insert(.pickup(newcomer), at: pickup)
                        trialStops.insert(.dropoff(newcomer), at: dropoff)
                        guard Oracle.minimumDuration(problem, vehicle: route.vehicle, stops: trialStops) != nil else { continue }
                        let added =
                            Oracle.cost(problem, vehicle: route.vehicle, stops: trialStops)
                            - Oracle.cost(problem, vehicle: route.vehicle, stops: stops)
                        expected = min(expected ?? .infinity, added)
                    }
                }
            }

            let insertion = CheapestInsertion(problem: problem)
            let option = insertion.bestInsertion(of: newcomer, into: plan)
            #expect((option == nil) == (expected == nil), "trial \(trial)")
            if let option, let expected {
                found += 1
                #expect(
                    abs(option.addedCost - expected) < 1e-7,
                    "trial \(trial): \(option) vs \(expected) plan \(plan) feasible \(plan.routes.map { RouteEvaluator(problem: problem).isFeasible($0) })"
                )
                let inserted = option.applied(to: plan, request: newcomer)
                let stops = inserted.routes[option.vehicle].stops
                #expect(Oracle.minimumDuration(problem, vehicle: option.vehicle, stops: stops) != nil)
                #expect(option.pickupIndex >= routes[option.vehicle].lockedPrefixCount)
            } else {
                none += 1
            }
        }
        print("insertions: \(found) found, \(none) impossible")
        #expect(found > 20 && none > 1, "cases should mix possible and impossible insertions")
    }
}
