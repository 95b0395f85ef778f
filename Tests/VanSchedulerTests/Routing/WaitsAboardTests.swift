import Foundation
import Testing
@testable import VanScheduler

/// The unhurried schedule (``RouteEvaluator/schedule(for:earliest:unhurried:)``) on random routes,
/// checked from the problem's definition, not from the engine: every window, every ride-time
/// limit, every leg and the route's duration hold; no rider waits aboard longer than in the
/// earliest schedule; and the route, so its driving, is the same.
@Suite("Waiting empty rather than with riders aboard")
struct WaitsAboardTests {
    /// Whether `times` (service starts, in stop order) keep every promise of `route`, read from the
    /// problem: windows, legs in order, ride times (drop-off start minus pickup end), and the
    /// vehicle's availability and longest duration given its departure and arrival.
    static func keepsEveryPromise(_ route: VehicleRoute, departure: Double, times: [Double], arrival: Double, in problem: RoutingProblem) -> String? {
        let tolerance = 1e-6
        let vehicle = problem.vehicles[route.vehicle]
        var place = vehicle.startDepot, clock = departure + problem.nodes[vehicle.startDepot].serviceDuration
        var pickedAt: [Int: Double] = [:]
        for (stop, at) in zip(route.stops, times) {
            let node = problem.node(of: stop)
            if at + tolerance < clock + problem.travel.time(place, node) { return "stop \(stop) starts before the van can be there" }
            let window = problem.nodes[node].window
            if at + tolerance < window.earliest || at - tolerance > window.latest { return "stop \(stop) at \(at) outside \(window)" }
            if stop.kind == .pickup {
                pickedAt[stop.request] = at + problem.nodes[node].serviceDuration
            } else if let picked = pickedAt[stop.request], at - picked > problem.requests[stop.request].maxRideTime + tolerance {
                return "request \(stop.request) rides \(at - picked), over \(problem.requests[stop.request].maxRideTime)"
            }
            place = node
            clock = at + problem.nodes[node].serviceDuration
        }
        if arrival + tolerance < clock + problem.travel.time(place, vehicle.endDepot) { return "the van reaches its depot too soon" }
        if arrival - departure > vehicle.maxDuration + tolerance { return "the route lasts too long" }
        if departure + tolerance < vehicle.availability.earliest || arrival - tolerance > vehicle.availability.latest {
            return "outside the van's hours"
        }
        return nil
    }

    /// Minutes the van stands at stops with riders aboard, waiting for a window, from the times alone.
    static func waitAboard(_ route: VehicleRoute, departure: Double, times: [Double], in problem: RoutingProblem) -> Double {
        let vehicle = problem.vehicles[route.vehicle]
        var place = vehicle.startDepot, clock = departure + problem.nodes[vehicle.startDepot].serviceDuration
        var aboard = Set<Int>(), total = 0.0
        for (stop, at) in zip(route.stops, times) {
            let node = problem.node(of: stop)
            let arrival = clock + problem.travel.time(place, node)
            if !aboard.isEmpty { total += max(0, at - arrival) }
            if stop.kind == .pickup { aboard.insert(stop.request) } else { aboard.remove(stop.request) }
            place = node
            clock = at + problem.nodes[node].serviceDuration
        }
        return total
    }

    @Test(arguments: [0.0, 2.0])
    func anUnhurriedScheduleKeepsEveryPromiseAndNeverWaitsAboardLonger(margin: Double) {
        var random = RoutingRandom(seed: 20_261_130)
        var routes = 0, lessWaiting = 0
        for _ in 0..<300 {
            let problem = RandomProblems.make(
                requests: 2 + random.below(5), vehicles: 1 + random.below(2), metric: random.below(2) == 0, random: &random)
            let plan = CheapestInsertion(problem: problem).constructedPlan()
            let evaluator = RouteEvaluator(problem: problem)
            for route in plan.routes where !route.stops.isEmpty {
                guard case .success(let early) = evaluator.schedule(for: route, earliest: true),
                    case .success(let calm) = evaluator.schedule(for: route, earliest: true, unhurried: margin)
                else {
                    Issue.record("a route of the plan has no schedule")
                    continue
                }
                routes += 1
                if let broken = Self.keepsEveryPromise(route, departure: calm.departure, times: calm.serviceStart, arrival: calm.arrival, in: problem)
                {
                    Issue.record("\(broken) in \(route.stops)")
                }
                #expect(calm.cost == early.cost && calm.departure == early.departure && calm.arrival == early.arrival)
                let before = Self.waitAboard(route, departure: early.departure, times: early.serviceStart, in: problem)
                let after = Self.waitAboard(route, departure: calm.departure, times: calm.serviceStart, in: problem)
                #expect(after <= before + 1e-9, "waiting aboard grew from \(before) to \(after)")
                if after < before - 1e-9 { lessWaiting += 1 }
                // Never earlier than the earliest schedule: a stop only moves later.
                #expect(zip(calm.serviceStart, early.serviceStart).allSatisfy { $0 >= $1 - 1e-9 })
            }
        }
        #expect(routes > 200)
        #expect(lessWaiting > 10, "the random routes never waited aboard: the test shows nothing")
    }

    @Test func aWaitForTheNextWindowMovesBeforeTheFirstPickup() {
        // Depot at 0; A picked up at 10 (window 0–30), then B's pickup opens at 40: with A aboard the
        // van would stand 25 minutes at B's door. Unhurried, it takes A at 30 (her window's end less
        // the 5-minute margin would be 25): it stands empty instead.
        let points: [(x: Double, y: Double)] = [(0, 0), (0, 0), (10, 0), (15, 0), (20, 0), (25, 0)]
        let nodes = [
            RouteNode(window: TimeWindow(earliest: 0, latest: 200)), RouteNode(window: TimeWindow(earliest: 0, latest: 200)),
            RouteNode(window: TimeWindow(earliest: 0, latest: 30)), RouteNode(window: TimeWindow(earliest: 40, latest: 60)),
            RouteNode(window: TimeWindow(earliest: 0, latest: 200)), RouteNode(window: TimeWindow(earliest: 0, latest: 200)),
        ]
        let problem = RoutingProblem(
            nodes: nodes,
            requests: [
                RouteRequest(pickup: 2, dropoff: 4, load: Capacity(seats: 1), maxRideTime: 100),
                RouteRequest(pickup: 3, dropoff: 5, load: Capacity(seats: 1), maxRideTime: 100),
            ],
            vehicles: [RouteVehicle(capacity: Capacity(seats: 3), startDepot: 0, endDepot: 1)], travel: TravelMatrix(euclidean: points))
        let route = VehicleRoute(
            vehicle: 0,
            stops: [
                RouteStop(request: 0, kind: .pickup), RouteStop(request: 1, kind: .pickup), RouteStop(request: 0, kind: .dropoff),
                RouteStop(request: 1, kind: .dropoff),
            ])
        let evaluator = RouteEvaluator(problem: problem)
        guard case .success(let early) = evaluator.schedule(for: route, earliest: true),
            case .success(let calm) = evaluator.schedule(for: route, earliest: true, unhurried: 5)
        else {
            Issue.record("no schedule")
            return
        }
        #expect(early.serviceStart == [10, 40, 45, 50])
        #expect(calm.serviceStart == [25, 40, 45, 50], "A waits 10 minutes aboard, not 25: her window's end less the margin")
        #expect(Self.waitAboard(route, departure: calm.departure, times: calm.serviceStart, in: problem) == 10)
    }
}
