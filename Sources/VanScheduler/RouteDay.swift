import Foundation
import VanDomain

/// One stretch of service on some vans as a dial-a-ride problem for the routing engine: each
/// van's route (its rides in the order of their planned stops) and one more ride to place.
///
/// Times are seconds from ``origin``: the stretch's start, or the pickup of a ride already aboard
/// then. Every van starts and ends the stretch "anywhere" (a depot with no travel to or from it)
/// and runs only inside the stretch. A ride planned to start before `lockBefore` is under way or
/// about to be: its stops are pinned to their planned times (and it stays on its van). A new ride
/// may still go before such a stop if the van reaches the stop at its pinned time all the same:
/// a van whose next stop is at 9:28 takes a 9:20 ride that ends by then (the time windows decide;
/// a stop planned in the past can have nothing new before it). A ride ``BookedRide/underWay`` is
/// pinned too, and nothing is inserted before its pickup: the van is at it or past it.
/// So is a ride picked up before the stretch starts and dropped off after (the stretch a search
/// cut out of a longer one, ``Scheduler/routeReach``): it stays aboard, counted in the load.
struct RouteDay {
    /// The stretch of service the routes lie in.
    let stretch: DateInterval
    /// Time zero: the stretch's start, or the earliest pickup of a ride aboard when it starts.
    let origin: Date
    /// The vans, in vehicle order.
    let vans: [Van]
    /// The rides already on the routes, in request order; the ride being placed comes after them.
    let rides: [BookedRide]
    /// Trip figures.
    let estimator: TripEstimator
    /// Plans vans to wait empty rather than with riders aboard, keeping this margin (``Scheduler/unhurriedMargin``).
    let unhurried: Double?
    /// The routes as they are, the new ride unassigned.
    let plan: RoutePlan
    /// The routes as a routing problem; the new ride (if any) is on none of them, its windows open
    /// until a promise is given (see ``problem(placing:maxRideTime:notBefore:)``).
    let problem: RoutingProblem
    /// The routes' timing, worked out once for all the promises the new ride is tried under.
    private let prepared: PreparedRoutes?

    /// The request index of the ride being placed.
    var newRequest: Int { rides.count }

    /// The new ride's ends, wheelchair and companions.
    struct NewRide {
        let pickup: Coordinate?
        let dropoff: Coordinate?
        let wheelchair: Bool
        let companions: Int
    }

    init(
        stretch: DateInterval, vans: [Van], rides: [BookedRide], newRide: NewRide?, estimator: TripEstimator, lockBefore: Date?,
        unhurried: Double? = nil
    ) {
        self.unhurried = unhurried
        self.stretch = stretch
        self.vans = vans
        self.estimator = estimator
        let vanIndex = Dictionary(uniqueKeysWithValues: vans.enumerated().map { ($1.id, $0) })
        // The stretch's rides, and those aboard when it starts (picked up before, dropped off after).
        let rides = rides.filter { ride in
            vanIndex[ride.vanID] != nil && (stretch.contains(ride.pickupAt) || (ride.pickupAt < stretch.start && ride.dropoffAt > stretch.start))
        }
        self.rides = rides
        let origin = rides.reduce(stretch.start) { min($0, $1.pickupAt) }
        self.origin = origin

        // Locations: 0 is the depot ("anywhere"); known points are shared; an unknown point is its own.
        var locationOf: [PointKey: Int] = [:]
        var points: [Coordinate?] = [nil]
        // An unknown point's other end, when that is unknown too: the estimator's leg between them.
        var partner: [Int: Int] = [:]
        func location(_ coordinate: Coordinate?) -> Int {
            guard let coordinate else { points.append(nil); return points.count - 1 }
            let key = PointKey(coordinate)
            if let known = locationOf[key] { return known }
            points.append(coordinate)
            locationOf[key] = points.count - 1
            return points.count - 1
        }
        func seconds(_ date: Date) -> Double { date.timeIntervalSince(origin) }
        // The vans run from time zero; a stop not pinned lies in the stretch. Where a search cut the
        // stretch short and a ride is dropped off too late to be done by the cut, the routes run on
        // an hour past it (rides beyond the cut are not planned on; a change that comes near
        // the cut says so, ``Scheduler/routeReach``).
        let lastDone = rides.reduce(stretch.end) { max($0, $1.dropoffAt.addingTimeInterval(Self.alighting(estimator, wheelchair: $1.wheelchair))) }
        let end = lastDone > stretch.end ? lastDone.addingTimeInterval(3_600) : stretch.end
        let all = TimeWindow(earliest: 0, latest: seconds(end))
        let whole = TimeWindow(earliest: seconds(stretch.start), latest: seconds(end))
        func window(_ interval: DateInterval) -> TimeWindow {
            whole.intersection(TimeWindow(earliest: seconds(interval.start), latest: seconds(interval.end)))
        }

        var nodes = [RouteNode(window: all), RouteNode(window: all)]
        var nodeLocations = [0, 0]
        var requests: [RouteRequest] = []
        for ride in rides {
            let pinned = ride.underWay || ride.pickupAt < stretch.start || (lockBefore.map { ride.pickupAt < $0 } ?? false)
            let boarding = Self.boarding(estimator, wheelchair: ride.wheelchair)
            // A pinned stop keeps its planned time, give or take the second planned times are rounded to.
            let pickupWindow =
                pinned
                ? TimeWindow(earliest: seconds(ride.pickupAt), latest: seconds(ride.pickupAt) + 1)
                : ride.promise.kind == .pickup ? window(ride.promise.window) : whole
            let dropoffWindow =
                pinned
                ? TimeWindow(earliest: seconds(ride.dropoffAt), latest: seconds(ride.dropoffAt) + 1)
                : ride.promise.kind == .arriveBy ? window(ride.promise.window) : whole
            nodes.append(RouteNode(serviceDuration: boarding, window: pickupWindow))
            nodes.append(RouteNode(serviceDuration: Self.alighting(estimator, wheelchair: ride.wheelchair), window: dropoffWindow))
            nodeLocations.append(location(ride.pickup))
            nodeLocations.append(location(ride.dropoff))
            if ride.pickup == nil, ride.dropoff == nil { partner[nodeLocations[nodeLocations.count - 2]] = nodeLocations[nodeLocations.count - 1] }
            requests.append(
                RouteRequest(
                    pickup: nodes.count - 2, dropoff: nodes.count - 1,
                    load: Capacity(seats: Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions), wheelchairs: ride.wheelchair ? 1 : 0),
                    maxRideTime: pinned ? .infinity : Self.engineRideTime(ride.maxRideTime, boarding: boarding),
                    locked: pinned || ride.vanPinned
                ))
        }
        // The new ride, with an open window until a promise is given (see `problem(placing:…)`).
        if let newRide {
            nodes.append(RouteNode(serviceDuration: Self.boarding(estimator, wheelchair: newRide.wheelchair), window: whole))
            nodes.append(RouteNode(serviceDuration: Self.alighting(estimator, wheelchair: newRide.wheelchair), window: whole))
            nodeLocations.append(location(newRide.pickup))
            nodeLocations.append(location(newRide.dropoff))
            if newRide.pickup == nil, newRide.dropoff == nil {
                partner[nodeLocations[nodeLocations.count - 2]] = nodeLocations[nodeLocations.count - 1]
            }
            requests.append(
                RouteRequest(
                    pickup: nodes.count - 2, dropoff: nodes.count - 1,
                    load: Capacity(
                        seats: Ride.seats(wheelchair: newRide.wheelchair, companions: newRide.companions), wheelchairs: newRide.wheelchair ? 1 : 0)
                ))
        }

        let unknown = estimator.unknownDeadhead, unknownLeg = estimator.unknownLegDuration
        let count = points.count
        var times = [Double](repeating: 0, count: count * count)
        for from in 1..<max(1, count) {
            for to in 1..<count where to != from {
                if partner[from] == to {
                    times[from * count + to] = unknownLeg
                } else if let a = points[from], let b = points[to] {
                    times[from * count + to] = estimator.deadhead(from: a, to: b)
                } else {
                    times[from * count + to] = unknown
                }
            }
        }
        let time = { (from: Int, to: Int) -> Double in times[from * count + to] }
        // Travel between campus places is metric, which lets insertion prune on the routes' earliest
        // and latest times; typed addresses (a fixed guess) may break that, and then it checks more.
        // The check is cubic in the places, so a day of very many distinct points is taken as not metric.
        let metric = points.count <= Self.metricCheckLimit && TravelMatrix.isMetric(count: points.count, from: 1, time: time)
        let travel = TravelMatrix(locations: nodeLocations, locationCount: points.count, time: time, triangleInequality: metric)
        let vehicles = vans.map { van in
            RouteVehicle(
                capacity: Capacity(seats: van.seats, wheelchairs: van.wheelchairPositions),
                startDepot: 0, endDepot: 1, maxDuration: .infinity, availability: all)
        }

        var routes = vans.indices.map { VehicleRoute(vehicle: $0) }
        // Each van's stops by planned time, a drop-off before a pickup at the same second, else in
        // request order (a stable order, with plain numbers for keys: this runs on every booking).
        var stops: [[(at: Double, code: Int)]] = Array(repeating: [], count: vans.count)
        for (index, ride) in rides.enumerated() {
            let van = vanIndex[ride.vanID]!
            stops[van].append((ride.pickupAt.timeIntervalSinceReferenceDate, RouteStop.pickup(index).code))
            stops[van].append((ride.dropoffAt.timeIntervalSinceReferenceDate, RouteStop.dropoff(index).code))
        }
        // A van's route is fixed up to the pickup of its last ride under way, wherever that lies.
        // Rides about to start (before `lockBefore`) are pinned by their windows, not by a fixed
        // prefix: a ride that fits before one of them, keeping its time, is not refused.
        var underWayUntil = [Double](repeating: -.infinity, count: vans.count)
        for ride in rides where ride.underWay {
            let van = vanIndex[ride.vanID]!
            underWayUntil[van] = max(underWayUntil[van], ride.pickupAt.timeIntervalSinceReferenceDate)
        }
        for van in vans.indices {
            stops[van].sort { a, b in
                if a.at != b.at { return a.at < b.at }
                let aDrop = a.code & 1, bDrop = b.code & 1
                return aDrop != bDrop ? aDrop > bDrop : a.code < b.code
            }
            routes[van].stops = stops[van].map { RouteStop(code: $0.code) }
            let fixedTo = underWayUntil[van]
            if fixedTo > -.infinity {
                routes[van].lockedPrefixCount = stops[van].prefix { $0.at <= fixedTo }.count
            }
        }
        let plan = RoutePlan(routes: routes, unassigned: newRide == nil ? [] : [rides.count])
        let problem = RoutingProblem(nodes: nodes, requests: requests, vehicles: vehicles, travel: travel)
        self.plan = plan
        self.problem = problem
        prepared = newRide == nil ? nil : PreparedRoutes(plan: plan, problem: problem)
    }

    /// The problem with the new ride promised `promise` (clipped to the stretch and to `notBefore`)
    /// and limited to `maxRideTime`.
    func problem(placing promise: RidePromise, maxRideTime: TimeInterval, notBefore: Date?) -> RoutingProblem {
        precondition(prepared != nil, "RouteDay has no new ride to place")
        let request = problem.requests[newRequest]
        let whole = TimeWindow(earliest: stretch.start.timeIntervalSince(origin), latest: stretch.end.timeIntervalSince(origin))
        let promised = whole.intersection(
            TimeWindow(
                earliest: promise.window.start.timeIntervalSince(origin), latest: promise.window.end.timeIntervalSince(origin)))
        let earliest = notBefore.map { TimeWindow(earliest: $0.timeIntervalSince(origin), latest: .infinity) } ?? .unbounded
        return problem.replacingPromise(
            of: newRequest,
            pickup: (promise.kind == .pickup ? promised : whole).intersection(earliest),
            dropoff: promise.kind == .arriveBy ? promised : whole,
            maxRideTime: Self.engineRideTime(maxRideTime, boarding: problem.nodes[request.pickup].serviceDuration)
        )
    }

    /// The cheapest place for the new ride under `promise`, with the van's route re-planned; nil if none.
    func placement(promise: RidePromise, maxRideTime: TimeInterval, notBefore: Date?) -> Assignment? {
        let problem = problem(placing: promise, maxRideTime: maxRideTime, notBefore: notBefore)
        guard let option = prepared?.bestInsertion(of: newRequest, problem: problem) else { return nil }
        let route = option.applied(to: plan, request: newRequest).routes[option.vehicle]
        guard case .success(let schedule) = RouteEvaluator(problem: problem).schedule(for: route, earliest: true, unhurried: unhurried) else {
            return nil
        }
        var pickupAt = stretch.end, dropoffAt = stretch.end
        var replanned: [UUID: PlannedStops] = [:]
        var changed: [Date] = []  // every stop time the placement sets or moves, before and after
        var times: [Int: (pickup: Date?, dropoff: Date?)] = [:]
        for (position, stop) in route.stops.enumerated() {
            let at = origin.addingTimeInterval(schedule.serviceStart[position].rounded())
            if stop.kind == .pickup {
                times[stop.request, default: (nil, nil)].pickup = at
            } else {
                times[stop.request, default: (nil, nil)].dropoff = at
            }
        }
        for (request, planned) in times {
            guard let pickup = planned.pickup, let dropoff = planned.dropoff else { continue }
            if request == newRequest {
                (pickupAt, dropoffAt) = Self.kept(promise, pickup: pickup, dropoff: dropoff)
                continue
            }
            let ride = rides[request]
            let kept = Self.kept(ride.promise, pickup: pickup, dropoff: dropoff)
            if kept.pickup != ride.pickupAt || kept.dropoff != ride.dropoffAt {
                replanned[ride.id] = PlannedStops(pickupAt: kept.pickup, dropoffAt: kept.dropoff)
                changed.append(contentsOf: [ride.pickupAt, ride.dropoffAt, kept.pickup, kept.dropoff])
            }
        }
        changed.append(contentsOf: [pickupAt, dropoffAt])
        var assignment = Assignment(
            vanID: vans[option.vehicle].id, pickupAt: pickupAt, dropoffAt: dropoffAt, idleGap: option.addedWaiting,
            promise: promise, maxRideTime: maxRideTime, addedDriving: option.addedCost, replanned: replanned
        )
        assignment.changes = DateInterval(start: changed.min()!, end: changed.max()!)
        assignment.opensRoute = route.stops.first?.request == newRequest
        assignment.closesRoute = route.stops.last?.request == newRequest
        return assignment
    }

    /// Planned times and vans of `plan` for every ride, by ride id (rides on no route are left out).
    func plannedStops(of plan: RoutePlan, in problem: RoutingProblem) -> [UUID: (vanID: Int64, stops: PlannedStops)] {
        let evaluator = RouteEvaluator(problem: problem)
        var result: [UUID: (vanID: Int64, stops: PlannedStops)] = [:]
        for route in plan.routes {
            guard case .success(let schedule) = evaluator.schedule(for: route, earliest: true, unhurried: unhurried) else { continue }
            var times: [Int: (pickup: Date?, dropoff: Date?)] = [:]
            for (position, stop) in route.stops.enumerated() where stop.request < rides.count {
                let at = origin.addingTimeInterval(schedule.serviceStart[position].rounded())
                if stop.kind == .pickup {
                    times[stop.request, default: (nil, nil)].pickup = at
                } else {
                    times[stop.request, default: (nil, nil)].dropoff = at
                }
            }
            for (request, planned) in times {
                guard let pickup = planned.pickup, let dropoff = planned.dropoff else { continue }
                let kept = Self.kept(rides[request].promise, pickup: pickup, dropoff: dropoff)
                result[rides[request].id] = (vans[route.vehicle].id, PlannedStops(pickupAt: kept.pickup, dropoffAt: kept.dropoff))
            }
        }
        return result
    }

    /// Driving, vans used and busy time of `plan`.
    func measure(_ plan: RoutePlan, in problem: RoutingProblem) -> PlanMeasures {
        let evaluator = RouteEvaluator(problem: problem)
        var busy = 0.0
        for route in plan.routes where !route.stops.isEmpty {
            if case .success(let schedule) = evaluator.schedule(for: route, earliest: true), let first = schedule.serviceStart.first,
                let last = schedule.serviceStart.last
            {
                busy += last - first
            }
        }
        return PlanMeasures(rides: plan.servedCount, driving: plan.cost(in: problem), vansUsed: plan.vehiclesUsed, busy: busy)
    }

    /// The most distinct places whose travel times are checked for the triangle inequality.
    static let metricCheckLimit = 160

    /// A point's identity for sharing a location: its exact coordinate.
    private struct PointKey: Hashable {
        let latitude: Double
        let longitude: Double

        init(_ coordinate: Coordinate) {
            latitude = coordinate.latitude
            longitude = coordinate.longitude
        }
    }

    /// Times rounded to the second, with the promised stop kept inside its window.
    private static func kept(_ promise: RidePromise, pickup: Date, dropoff: Date) -> (pickup: Date, dropoff: Date) {
        func clamp(_ date: Date) -> Date { min(max(date, promise.window.start), promise.window.end) }
        return promise.kind == .pickup ? (clamp(pickup), dropoff) : (pickup, clamp(dropoff))
    }

    /// The engine measures ride time from the end of boarding to the arrival at the drop-off;
    /// a second of margin absorbs rounding planned times to whole seconds.
    private static func engineRideTime(_ limit: TimeInterval, boarding: TimeInterval) -> Double {
        limit.isFinite ? max(0, limit - boarding - 1) : .infinity
    }

    static func boarding(_ estimator: TripEstimator, wheelchair: Bool) -> TimeInterval {
        wheelchair ? estimator.wheelchairBoarding : estimator.boarding
    }

    static func alighting(_ estimator: TripEstimator, wheelchair: Bool) -> TimeInterval {
        wheelchair ? estimator.wheelchairAlighting : estimator.alighting
    }
}
