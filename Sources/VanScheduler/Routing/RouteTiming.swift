/// Times within this much of a limit count as meeting it (floating-point rounding).
let timeTolerance = 1e-9

/// The timing constraints of one route, laid out by position, and their exact solution.
///
/// Positions: 0 is the start depot, 1...m the stops, m + 1 the end depot.
/// The unknowns are the service start times `b`, and every constraint is a
/// difference constraint, so the route is a simple temporal network:
/// - chain: `b[k + 1] >= b[k] + service[k] + leg[k]` (waiting allowed);
/// - windows: `lo[k] <= b[k] <= hi[k]`;
/// - ride time: `b[drop] - b[pick] <= service[pick] + maxRide[pick]`;
/// - duration: `b[last] - b[0] <= maxDuration`.
///
/// `solveEarliest` is Bellman–Ford specialised to this graph: each round is one
/// forward pass over the chain (forward time slack absorbs delays in waiting)
/// followed by relaxing every ride-time and the duration edge, which can only
/// push a pickup or the departure later. Starting from lower bounds it climbs
/// to the least solution; any time above its window proves infeasibility, and a
/// round count above the longest simple path proves a contradiction cycle. Most
/// routes settle in the first pass, so the common case is one linear scan.
struct RouteTiming: Sendable {
    var node: [Int] = []
    /// For a pickup, the position of its drop-off; for a drop-off, of its pickup; -1 at depots.
    var partner: [Int] = []
    /// At a pickup, the request's maximum ride time.
    var maxRide: [Double] = []
    var lo: [Double] = []
    var hi: [Double] = []
    var service: [Double] = []
    /// Travel time from position k to k + 1 (0 at the end depot).
    var leg: [Double] = []
    /// The service start times being solved for.
    var times: [Double] = []
    var maxDuration: Double = .infinity

    var count: Int { node.count }
    var last: Int { node.count - 1 }

    mutating func removeAll() {
        node.removeAll(keepingCapacity: true)
        partner.removeAll(keepingCapacity: true)
        maxRide.removeAll(keepingCapacity: true)
        lo.removeAll(keepingCapacity: true)
        hi.removeAll(keepingCapacity: true)
        service.removeAll(keepingCapacity: true)
        leg.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
    }

    /// Becomes a copy of `other` without giving up its own storage.
    mutating func copy(from other: RouteTiming) {
        removeAll()
        node.append(contentsOf: other.node)
        partner.append(contentsOf: other.partner)
        maxRide.append(contentsOf: other.maxRide)
        lo.append(contentsOf: other.lo)
        hi.append(contentsOf: other.hi)
        service.append(contentsOf: other.service)
        leg.append(contentsOf: other.leg)
        times.append(contentsOf: other.times)
        maxDuration = other.maxDuration
    }

    /// Inserts a position; partners are not renumbered.
    mutating func insert(
        at position: Int, node: Int, partner: Int, maxRide: Double, lo: Double, hi: Double,
        service: Double, leg: Double, time: Double
    ) {
        self.node.insert(node, at: position)
        self.partner.insert(partner, at: position)
        self.maxRide.insert(maxRide, at: position)
        self.lo.insert(lo, at: position)
        self.hi.insert(hi, at: position)
        self.service.insert(service, at: position)
        self.leg.insert(leg, at: position)
        self.times.insert(time, at: position)
    }

    @inline(__always)
    mutating func append(
        node: Int, partner: Int, maxRide: Double, lo: Double, hi: Double,
        service: Double, leg: Double, time: Double
    ) {
        self.node.append(node)
        self.partner.append(partner)
        self.maxRide.append(maxRide)
        self.lo.append(lo)
        self.hi.append(hi)
        self.service.append(service)
        self.leg.append(leg)
        self.times.append(time)
    }

    /// Lays out a vehicle's stops (codes) and checks structure and capacity.
    ///
    /// `loads` receives the load after each position. `pickupPosition` is a
    /// scratch array with one entry per request, all -1; it is left that way.
    mutating func layout(
        codes: [Int],
        vehicle: RouteVehicle,
        tables: RoutingTables,
        loads: inout [Capacity],
        pickupPosition: inout [Int]
    ) -> RouteViolation? {
        removeAll()
        loads.removeAll(keepingCapacity: true)
        for code in codes where code < 0 || code >> 1 >= pickupPosition.count {
            return .malformedRequest(code >> 1)
        }
        maxDuration = vehicle.maxDuration
        let start = vehicle.startDepot
        let end = vehicle.endDepot
        append(
            node: start, partner: -1, maxRide: 0,
            lo: max(tables.earliest[start], vehicle.availability.earliest),
            hi: min(tables.latest[start], vehicle.availability.latest),
            service: tables.service[start], leg: 0, time: 0)
        loads.append(.zero)
        var violation: RouteViolation?
        var load = Capacity.zero
        for (index, code) in codes.enumerated() {
            let position = index + 1
            let request = code >> 1
            let nodeIndex = tables.node(ofCode: code)
            var partner = -1
            if code & 1 == 0 {
                if pickupPosition[request] != -1 { violation = violation ?? .malformedRequest(request) }
                pickupPosition[request] = position
                load = load + tables.load[request]
            } else {
                let pickup = pickupPosition[request]
                if pickup < 0 {
                    violation = violation ?? (pickup == -1 ? .dropoffBeforePickup(request) : .malformedRequest(request))
                } else {
                    partner = pickup
                    self.partner[pickup] = position
                }
                pickupPosition[request] = -2
                load = load - tables.load[request]
            }
            leg[position - 1] = tables.time(node[position - 1], nodeIndex)
            append(
                node: nodeIndex, partner: partner, maxRide: tables.maxRide[request],
                lo: tables.earliest[nodeIndex], hi: tables.latest[nodeIndex],
                service: tables.service[nodeIndex], leg: 0, time: 0)
            loads.append(load)
            if violation == nil, !load.fits(within: vehicle.capacity) {
                violation = .overCapacity(position: position)
            }
        }
        leg[count - 1] = tables.time(node[count - 1], end)
        append(
            node: end, partner: -1, maxRide: 0,
            lo: max(tables.earliest[end], vehicle.availability.earliest),
            hi: min(tables.latest[end], vehicle.availability.latest),
            service: tables.service[end], leg: 0, time: 0)
        loads.append(load)
        for code in codes {
            let request = code >> 1
            if pickupPosition[request] >= 0 { violation = violation ?? .malformedRequest(request) }
            pickupPosition[request] = -1
        }
        return violation
    }

    /// Solves for the earliest service times from scratch.
    mutating func solveEarliest() -> RouteViolation? {
        for position in 0..<count {
            if lo[position] > hi[position] + timeTolerance { return .windowMissed(position: position) }
            times[position] = lo[position]
        }
        return solveLeast(from: 0, dirtyThrough: last)
    }

    /// Raises `times` to the least solution of the constraints.
    ///
    /// `times` must hold lower bounds on that solution (each at least `lo`),
    /// and every chain constraint after `dirtyThrough` must already hold
    /// between positions the pass does not change; the pass stops there early.
    mutating func solveLeast(from start: Int, dirtyThrough: Int) -> RouteViolation? {
        let maxDuration = self.maxDuration
        return partner.withUnsafeBufferPointer { partner in
            maxRide.withUnsafeBufferPointer { maxRide in
                hi.withUnsafeBufferPointer { hi in
                    service.withUnsafeBufferPointer { service in
                        leg.withUnsafeBufferPointer { leg in
                            times.withUnsafeMutableBufferPointer { times in
                                RouteTiming.solveLeast(
                                    from: start, dirtyThrough: dirtyThrough, maxDuration: maxDuration,
                                    partner: partner, maxRide: maxRide, hi: hi, service: service, leg: leg,
                                    times: times
                                )
                            }
                        }
                    }
                }
            }
        }
    }

    private static func solveLeast(
        from start: Int,
        dirtyThrough: Int,
        maxDuration: Double,
        partner: UnsafeBufferPointer<Int>,
        maxRide: UnsafeBufferPointer<Double>,
        hi: UnsafeBufferPointer<Double>,
        service: UnsafeBufferPointer<Double>,
        leg: UnsafeBufferPointer<Double>,
        times: UnsafeMutableBufferPointer<Double>
    ) -> RouteViolation? {
        let last = times.count - 1
        var from = start
        var dirty = dirtyThrough
        var rounds = 0
        while true {
            if times[from] > hi[from] + timeTolerance { return .windowMissed(position: from) }
            var position = from + 1
            while position <= last {
                let arrival = times[position - 1] + service[position - 1] + leg[position - 1]
                if arrival > times[position] {
                    if arrival > hi[position] + timeTolerance { return .windowMissed(position: position) }
                    times[position] = arrival
                } else if position > dirty {
                    break
                }
                position += 1
            }
            var firstRaised = Int.max
            var lastRaised = -1
            for pickup in 1..<max(last, 1) {
                let dropoff = partner[pickup]
                guard dropoff > pickup else { continue }
                let needed = times[dropoff] - service[pickup] - maxRide[pickup]
                if needed > times[pickup] + timeTolerance {
                    if needed > hi[pickup] + timeTolerance { return .windowMissed(position: pickup) }
                    times[pickup] = needed
                    firstRaised = min(firstRaised, pickup)
                    lastRaised = pickup
                }
            }
            let neededStart = times[last] - maxDuration
            if neededStart > times[0] + timeTolerance {
                if neededStart > hi[0] + timeTolerance { return .windowMissed(position: 0) }
                times[0] = neededStart
                firstRaised = 0
                lastRaised = max(lastRaised, 0)
            }
            if lastRaised < 0 { return nil }
            rounds += 1
            if rounds > times.count + 1 { return .inconsistentTimes }
            from = firstRaised
            dirty = lastRaised
        }
    }

    /// Computes the latest service times (greatest solution) into `latest`; false when none exist.
    func solveLatest(into latest: inout [Double]) -> Bool {
        latest.removeAll(keepingCapacity: true)
        latest.append(contentsOf: hi)
        let last = self.last
        var from = last
        var rounds = 0
        while true {
            if latest[from] < lo[from] - timeTolerance { return false }
            var position = from - 1
            while position >= 0 {
                let bound = latest[position + 1] - service[position] - leg[position]
                if bound < latest[position] {
                    if bound < lo[position] - timeTolerance { return false }
                    latest[position] = bound
                }
                position -= 1
            }
            var lastLowered = -1
            for dropoff in 2..<max(last, 2) {
                let pickup = partner[dropoff]
                guard pickup >= 0, pickup < dropoff else { continue }
                let bound = latest[pickup] + service[pickup] + maxRide[pickup]
                if bound < latest[dropoff] - timeTolerance {
                    if bound < lo[dropoff] - timeTolerance { return false }
                    latest[dropoff] = bound
                    lastLowered = dropoff
                }
            }
            let boundEnd = latest[0] + maxDuration
            if boundEnd < latest[last] - timeTolerance {
                if boundEnd < lo[last] - timeTolerance { return false }
                latest[last] = boundEnd
                lastLowered = last
            }
            if lastLowered < 0 { return true }
            rounds += 1
            if rounds > count + 1 { return false }
            from = lastLowered
        }
    }

    /// Total waiting between stops in the current `times` (waiting at the start depot excluded:
    /// the vehicle can simply leave later).
    func waiting() -> Double {
        var total = 0.0
        for position in stride(from: 2, through: last, by: 1) {
            let gap = times[position] - times[position - 1] - service[position - 1] - leg[position - 1]
            if gap > 0 { total += gap }
        }
        return total
    }
}
