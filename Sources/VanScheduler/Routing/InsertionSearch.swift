/// The best way found to insert one request into one route.
struct InsertionCandidate: Sendable {
    var cost: Double
    var waiting: Double
    /// Index of the pickup in the new stop list.
    var pickupIndex: Int
    /// Index of the drop-off in the new stop list (after the pickup).
    var dropoffIndex: Int
}

/// Finds the cheapest feasible insertion of a request into a route.
///
/// Every pickup/drop-off position pair first passes necessary conditions that
/// cost O(1) each — capacity, windows against the route's earliest and latest
/// times, the delay pushed along the stops in between, a ride-time lower bound —
/// and survivors are tried in order of added cost with the exact timing solve,
/// so the first feasible one (plus exact ties, broken by least added waiting)
/// is the answer.
struct InsertionSearch: Sendable {
    private var scratch = RouteTiming()
    private var pending: [(cost: Double, after: Int, dropAfter: Int)] = []

    init() {}

    /// The cheapest feasible insertion of `request` into `routes[index]` costing at most `costLimit`, if any.
    mutating func best(
        request: Int,
        in routes: [RouteState],
        at index: Int,
        problem: RoutingProblem,
        costLimit: Double = .infinity
    ) -> InsertionCandidate? {
        // Through a pointer, so the route is read in place rather than copied out of the array.
        routes.withUnsafeBufferPointer { buffer in
            best(request: request, in: buffer.baseAddress! + index, problem: problem, costLimit: costLimit)
        }
    }

    private mutating func best(
        request: Int,
        in pointer: UnsafePointer<RouteState>,
        problem: RoutingProblem,
        costLimit: Double
    ) -> InsertionCandidate? {
        let tables = problem.tables
        let metric = tables.metric
        let request = RequestFacts(
            request: request, tables: tables,
            capacity: problem.vehicles[pointer.pointee.vehicle].capacity)
        let stopCount = pointer.pointee.codes.count
        let lockedPrefix = pointer.pointee.lockedPrefix
        pending.removeAll(keepingCapacity: true)
        pointer.pointee.timing.node.withUnsafeBufferPointer { node in
            pointer.pointee.timing.service.withUnsafeBufferPointer { service in
                pointer.pointee.timing.leg.withUnsafeBufferPointer { leg in
                    (metric ? pointer.pointee.timing.times : pointer.pointee.timing.lo).withUnsafeBufferPointer { lower in
                        (metric ? pointer.pointee.latest : pointer.pointee.timing.hi).withUnsafeBufferPointer { upper in
                            pointer.pointee.loads.withUnsafeBufferPointer { loads in
                                tables.times.withUnsafeBufferPointer { times in
                                    tables.costs.withUnsafeBufferPointer { costs in
                                        tables.location.withUnsafeBufferPointer { location in
                                            InsertionSearch.collect(
                                                request, into: &pending,
                                                route: RouteView(
                                                    node: node, service: service, leg: leg, lower: lower,
                                                    upper: upper, loads: loads, stopCount: stopCount,
                                                    lockedPrefix: lockedPrefix),
                                                times: times, costs: costs, location: location, locationCount: tables.locationCount,
                                                costLimit: costLimit, sorted: metric
                                            )
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard !pending.isEmpty else { return nil }
        pending.sort { $0.cost < $1.cost }

        var best: InsertionCandidate?
        for candidate in pending {
            if let found = best, candidate.cost > found.cost + 1e-9 { break }
            guard
                check(
                    route: pointer, request: request.index, after: candidate.after,
                    dropAfter: candidate.dropAfter, tables: tables)
            else { continue }
            let waiting = scratch.waiting() - pointer.pointee.waiting
            if let found = best, found.waiting <= waiting { continue }
            best = InsertionCandidate(
                cost: candidate.cost, waiting: waiting,
                pickupIndex: candidate.after, dropoffIndex: candidate.dropAfter + 1)
        }
        return best
    }

    /// Exactly decides the route with the pickup after position `after` and the
    /// drop-off after old position `dropAfter`; leaves the times in `scratch`.
    private mutating func check(
        route: UnsafePointer<RouteState>, request: Int, after: Int, dropAfter: Int,
        tables: RoutingTables
    ) -> Bool {
        let metric = tables.metric
        let pickup = tables.pickupNode[request]
        let dropoff = tables.dropoffNode[request]
        let maxRide = tables.maxRide[request]
        scratch.copy(from: route.pointee.timing)
        let pickupPosition = after + 1
        let dropoffPosition = dropAfter + 2
        let afterPickup = after == dropAfter ? dropoff : route.pointee.timing.node[after + 1]
        scratch.insert(
            at: pickupPosition, node: pickup, partner: dropoffPosition, maxRide: maxRide,
            lo: tables.earliest[pickup], hi: tables.latest[pickup], service: tables.service[pickup],
            leg: tables.time(pickup, afterPickup), time: tables.earliest[pickup])
        scratch.insert(
            at: dropoffPosition, node: dropoff, partner: pickupPosition, maxRide: 0,
            lo: tables.earliest[dropoff], hi: tables.latest[dropoff], service: tables.service[dropoff],
            leg: tables.time(dropoff, route.pointee.timing.node[dropAfter + 1]), time: tables.earliest[dropoff])
        scratch.leg[after] = tables.time(route.pointee.timing.node[after], pickup)
        if dropAfter != after {
            scratch.leg[dropAfter + 1] = tables.time(route.pointee.timing.node[dropAfter], dropoff)
        }
        scratch.partner.withUnsafeMutableBufferPointer { partner in
            for position in partner.indices where position != pickupPosition && position != dropoffPosition {
                let old = partner[position]
                if old > dropAfter {
                    partner[position] = old + 2
                } else if old > after {
                    partner[position] = old + 1
                }
            }
        }
        if metric {
            return scratch.solveLeast(from: after, dirtyThrough: dropAfter + 3) == nil
        }
        return scratch.solveEarliest() == nil
    }

    /// What the candidate loop needs to know about the request.
    private struct RequestFacts {
        let index: Int
        let pickup: Int
        let dropoff: Int
        let load: Capacity
        let capacity: Capacity
        let pickupEarliest: Double
        let pickupLatest: Double
        let pickupService: Double
        let dropoffEarliest: Double
        let dropoffLatest: Double
        let dropoffService: Double
        let maxRide: Double

        init(request: Int, tables: RoutingTables, capacity: Capacity) {
            index = request
            pickup = tables.pickupNode[request]
            dropoff = tables.dropoffNode[request]
            load = tables.load[request]
            self.capacity = capacity
            pickupEarliest = tables.earliest[pickup]
            pickupLatest = tables.latest[pickup]
            pickupService = tables.service[pickup]
            dropoffEarliest = tables.earliest[dropoff]
            dropoffLatest = tables.latest[dropoff]
            dropoffService = tables.service[dropoff]
            maxRide = tables.maxRide[request]
        }
    }

    /// The route's arrays, borrowed for the candidate loop.
    private struct RouteView {
        let node: UnsafeBufferPointer<Int>
        let service: UnsafeBufferPointer<Double>
        let leg: UnsafeBufferPointer<Double>
        /// Lower bounds on service times after any insertion (earliest times when travel is metric).
        let lower: UnsafeBufferPointer<Double>
        /// Upper bounds on service times after any insertion (latest times when travel is metric).
        let upper: UnsafeBufferPointer<Double>
        let loads: UnsafeBufferPointer<Capacity>
        let stopCount: Int
        let lockedPrefix: Int
    }

    /// Appends every position pair that passes the O(1) necessary conditions.
    private static func collect(
        _ request: RequestFacts,
        into pending: inout [(cost: Double, after: Int, dropAfter: Int)],
        route: RouteView,
        times: UnsafeBufferPointer<Double>,
        costs: UnsafeBufferPointer<Double>,
        location: UnsafeBufferPointer<Int>,
        locationCount: Int,
        costLimit: Double,
        sorted: Bool
    ) {
        // Travel is between locations; many nodes may stand at one (see TravelMatrix).
        @inline(__always) func time(_ from: Int, _ to: Int) -> Double { times[location[from] &* locationCount &+ location[to]] }
        @inline(__always) func cost(_ from: Int, _ to: Int) -> Double { costs[location[from] &* locationCount &+ location[to]] }
        let eps = timeTolerance
        let m = route.stopCount
        let node = route.node
        let lower = route.lower
        let upper = route.upper
        let pickup = request.pickup
        let dropoff = request.dropoff
        let unusedCost = m == 0 ? cost(node[0], node[1]) : 0
        let directTime = time(pickup, dropoff)
        let directCost = cost(pickup, dropoff)

        // When `lower` and `upper` are the route's earliest and latest times (metric travel) they
        // never decrease along the route, so only the positions whose times can meet the request's
        // pickup need a look: from the first whose successor's latest time reaches the pickup's
        // earliest, to the last whose earliest time is not past the pickup's latest. The pickup's
        // bounds are tightened by the drop-off's window (the ride takes at least the direct trip
        // and at most the ride-time limit).
        var first = route.lockedPrefix
        var pickupLatest = request.pickupLatest
        if sorted {
            let pickupEarliest = max(request.pickupEarliest, request.dropoffEarliest - request.pickupService - request.maxRide)
            pickupLatest = min(pickupLatest, request.dropoffLatest - request.pickupService - directTime)
            var high = m
            while first < high {
                let middle = (first + high) / 2
                if upper[middle + 1] < pickupEarliest - eps { first = middle + 1 } else { high = middle }
            }
        }
        for after in first...m {
            if sorted, lower[after] > pickupLatest + eps { break }
            guard (route.loads[after] + request.load).fits(within: request.capacity) else { continue }
            let here = node[after]
            let next = node[after + 1]
            let arrivalPickup = max(request.pickupEarliest, lower[after] + route.service[after] + time(here, pickup))
            guard arrivalPickup <= request.pickupLatest + eps else { continue }
            let baseCost = unusedCost + cost(here, pickup) - cost(here, next)

            // Drop-off right after the pickup.
            let arrivalDirect = max(request.dropoffEarliest, arrivalPickup + request.pickupService + directTime)
            let latestDirect = min(request.dropoffLatest, upper[after + 1] - request.dropoffService - time(dropoff, next))
            let latestPickupDirect = min(request.pickupLatest, latestDirect - request.pickupService - directTime)
            if arrivalDirect <= latestDirect + eps, arrivalPickup <= latestPickupDirect + eps,
                arrivalDirect - latestPickupDirect - request.pickupService <= request.maxRide + eps
            {
                let total = baseCost + directCost + cost(dropoff, next)
                if total <= costLimit { pending.append((total, after, after)) }
            }
            guard after < m else { continue }
            let pickupToNext = time(pickup, next)
            let latestPickup = min(request.pickupLatest, upper[after + 1] - request.pickupService - pickupToNext)
            guard arrivalPickup <= latestPickup + eps else { continue }

            // Drop-off after a later stop: push the delay along the stops in between.
            var push = max(lower[after + 1], arrivalPickup + request.pickupService + pickupToNext)
            guard push <= upper[after + 1] + eps else { continue }
            let pickupSplitCost = baseCost + cost(pickup, next)
            var stop = after + 1
            while stop <= m {
                if stop > after + 1 {
                    push = max(lower[stop], push + route.service[stop - 1] + route.leg[stop - 1])
                    if push > upper[stop] + eps { break }
                }
                if !(route.loads[stop] + request.load).fits(within: request.capacity) { break }
                if push - latestPickup - request.pickupService > request.maxRide + eps { break }
                let here = node[stop]
                let following = node[stop + 1]
                let arrival = max(request.dropoffEarliest, push + route.service[stop] + time(here, dropoff))
                if arrival <= request.dropoffLatest + eps,
                    arrival <= upper[stop + 1] - request.dropoffService - time(dropoff, following) + eps,
                    arrival - latestPickup - request.pickupService <= request.maxRide + eps
                {
                    let total = pickupSplitCost + cost(here, dropoff) + cost(dropoff, following) - cost(here, following)
                    if total <= costLimit { pending.append((total, after, stop)) }
                }
                stop += 1
            }
        }
    }
}
