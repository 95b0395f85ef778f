import VanScheduler

/// Brute-force references written from the problem definition, independent of the engine.
enum Oracle {
    /// Timing, capacity and structure of one route, decided by Floyd–Warshall on the
    /// difference constraints. Returns nil when infeasible, else the minimum route duration.
    static func minimumDuration(_ problem: RoutingProblem, vehicle: Int, stops: [RouteStop]) -> Double? {
        if stops.isEmpty { return 0 }
        let car = problem.vehicles[vehicle]
        // Structure and capacity.
        var seenPickup = Set<Int>()
        var seenDropoff = Set<Int>()
        var load = Capacity.zero
        for stop in stops {
            let request = problem.requests[stop.request]
            if stop.kind == .pickup {
                guard seenPickup.insert(stop.request).inserted else { return nil }
                load = load + request.load
            } else {
                guard seenPickup.contains(stop.request), seenDropoff.insert(stop.request).inserted else { return nil }
                load = load - request.load
            }
            guard load.fits(within: car.capacity) else { return nil }
        }
        guard seenPickup == seenDropoff else { return nil }

        // Events: 0 origin, 1 start depot, 2...m+1 stops, m+2 end depot.
        let nodes = [car.startDepot] + stops.map { problem.node(of: $0) } + [car.endDepot]
        let size = nodes.count + 1
        var d = Array(repeating: Array(repeating: Double.infinity, count: size), count: size)
        for i in 0..<size { d[i][i] = 0 }
        func atMost(_ v: Int, minus u: Int, _ w: Double) {  // x_v - x_u <= w
            if w < d[u][v] { d[u][v] = w }
        }
        for (k, node) in nodes.enumerated() {
            var window = problem.nodes[node].window
            if k == 0 || k == nodes.count - 1 { window = window.intersection(car.availability) }
            if window.latest.isFinite { atMost(k + 1, minus: 0, window.latest) }
            if window.earliest.isFinite { atMost(0, minus: k + 1, -window.earliest) }
        }
        for k in 0..<(nodes.count - 1) {
            let gap = problem.nodes[nodes[k]].serviceDuration + problem.travel.time(nodes[k], nodes[k + 1])
            atMost(k + 1, minus: k + 2, -gap)
        }
        for (index, stop) in stops.enumerated() where stop.kind == .pickup {
            let dropIndex = stops.firstIndex(of: .dropoff(stop.request))!
            let ride = problem.requests[stop.request].maxRideTime
            if ride.isFinite {
                atMost(dropIndex + 2, minus: index + 2, ride + problem.nodes[nodes[index + 1]].serviceDuration)
            }
        }
        if car.maxDuration.isFinite { atMost(nodes.count, minus: 1, car.maxDuration) }
        for k in 0..<size {
            for i in 0..<size where d[i][k] < .infinity {
                for j in 0..<size where d[i][k] + d[k][j] < d[i][j] {
                    d[i][j] = d[i][k] + d[k][j]
                }
            }
        }
        for i in 0..<size where d[i][i] < -1e-7 { return nil }
        return -d[nodes.count][1]
    }

    /// Every stop order of the requests with each pickup before its drop-off.
    static func orders(of requests: [Int]) -> [[RouteStop]] {
        var result: [[RouteStop]] = []
        func extend(_ prefix: [RouteStop], _ open: Set<Int>, _ waiting: [Int]) {
            if open.isEmpty && waiting.isEmpty {
                result.append(prefix)
                return
            }
            for (index, request) in waiting.enumerated() {
                var rest = waiting
                rest.remove(at: index)
                extend(prefix + [.pickup(request)], open.union([request]), rest)
            }
            for request in open.sorted() {
                extend(prefix + [.dropoff(request)], open.subtracting([request]), waiting)
            }
        }
        extend([], [], requests)
        return result
    }

    /// Cost of a stop list driven by a vehicle, depot to depot (0 when empty).
    static func cost(_ problem: RoutingProblem, vehicle: Int, stops: [RouteStop]) -> Double {
        guard !stops.isEmpty else { return 0 }
        let car = problem.vehicles[vehicle]
        let nodes = [car.startDepot] + stops.map { problem.node(of: $0) } + [car.endDepot]
        return zip(nodes, nodes.dropFirst()).reduce(0) { $0 + problem.travel.cost($1.0, $1.1) }
    }
}

/// Random small problems with tight windows, ride limits and two-dimensional loads.
enum RandomProblems {
    static func make(requests: Int, vehicles: Int, metric: Bool, random: inout RoutingRandom) -> RoutingProblem {
        func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * random.unit() }
        let nodeCount = 2 + 2 * requests
        var points: [(x: Double, y: Double)] = []
        for _ in 0..<nodeCount { points.append((uniform(0, 10), uniform(0, 10))) }
        points[1] = points[0]
        var nodes = [
            RouteNode(window: TimeWindow(earliest: 0, latest: 120)),
            RouteNode(window: TimeWindow(earliest: 0, latest: 120)),
        ]
        var pickupNodes: [RouteNode] = []
        var dropoffNodes: [RouteNode] = []
        for _ in 0..<requests {
            let base = uniform(0, 50)
            let width = uniform(0, 20)
            let service = [0.0, 0.5, 1][random.below(3)]
            if random.below(2) == 0 {
                pickupNodes.append(RouteNode(serviceDuration: service, window: TimeWindow(earliest: base, latest: base + width)))
                dropoffNodes.append(RouteNode(serviceDuration: service, window: TimeWindow(earliest: 0, latest: 120)))
            } else {
                pickupNodes.append(RouteNode(serviceDuration: service, window: TimeWindow(earliest: 0, latest: 120)))
                dropoffNodes.append(RouteNode(serviceDuration: service, window: TimeWindow(earliest: base + 10, latest: base + 10 + width)))
            }
        }
        nodes += pickupNodes + dropoffNodes
        let travel: TravelMatrix
        if metric {
            travel = TravelMatrix(euclidean: points)
        } else {
            var times: [Double] = []
            var costs: [Double] = []
            for _ in 0..<(nodeCount * nodeCount) {
                times.append(uniform(0, 12))
                costs.append(uniform(0, 12))
            }
            travel = TravelMatrix(
                count: nodeCount, time: { $0 == $1 ? 0 : times[$0 * nodeCount + $1] },
                cost: { $0 == $1 ? 0 : costs[$0 * nodeCount + $1] })
        }
        let requestList = (0..<requests).map { index in
            let direct = travel.time(2 + index, 2 + requests + index)
            return RouteRequest(
                pickup: 2 + index, dropoff: 2 + requests + index,
                load: Capacity(seats: 1 + random.below(2), wheelchairs: random.below(4) == 0 ? 1 : 0),
                maxRideTime: random.below(5) == 0 ? .infinity : direct + uniform(0, 12)
            )
        }
        let vehicleList = (0..<vehicles).map { _ in
            RouteVehicle(
                capacity: Capacity(seats: 3 + random.below(2), wheelchairs: 1),
                startDepot: 0, endDepot: 1,
                maxDuration: random.below(3) == 0 ? .infinity : uniform(50, 110),
                availability: TimeWindow(earliest: uniform(0, 5), latest: uniform(80, 130)))
        }
        return RoutingProblem(nodes: nodes, requests: requestList, vehicles: vehicleList, travel: travel)
    }
}
