import Foundation
import VanDomain

/// The rest of a day on the road as a dial-a-ride problem for the routing engine: each van starts
/// at its own place and time (``VanStart``), riders aboard are already in it (their pickups a
/// locked first stop at the van's start, of no duration), and a van whose driver stands at a
/// pickup serves it first. Times are seconds from ``origin`` (now).
///
/// The problem comes in two strengths: ``strictWindows`` are the promises (each rider's window
/// and ride-time limit), and ``problem(latestPickup:latestDropoff:maxRide:)`` builds one with
/// some of them widened, for rides whose promise can no longer be kept (see
/// ``Scheduler/replanFromRoad(vans:starts:rides:now:margin:atRisk:frozen:)``).
struct RoadDay {
    /// Time zero.
    let origin: Date
    /// The vans, in vehicle order.
    let vans: [Van]
    /// Each van's start, in vehicle order.
    let starts: [VanStart]
    /// The rides on the vans, in request order.
    let rides: [RoadRide]
    /// Each ride's vehicle index.
    let vehicleOf: [Int]
    /// The routes as planned: aboard pickups, then the stop the van stands at, then the rest by planned time.
    let plan: RoutePlan
    /// Each request's promised pickup and drop-off windows and engine ride-time limit.
    let strictPickup: [TimeWindow], strictDropoff: [TimeWindow], strictRide: [Double]
    private let baseNodes: [RouteNode]
    private let requests: [RouteRequest]
    private let vehicles: [RouteVehicle]
    private let travel: TravelMatrix

    /// The node of request `r`'s pickup (drop-off is the next one).
    static func pickupNode(_ request: Int, vans: Int) -> Int { 1 + vans + 2 * request }

    init(vans: [Van], starts: [Int64: VanStart], rides: [RoadRide], now: Date, estimator: TripEstimator) {
        origin = now
        self.vans = vans
        let vanIndex = Dictionary(uniqueKeysWithValues: vans.enumerated().map { ($1.id, $0) })
        let starts = vans.map { starts[$0.id] ?? VanStart(place: nil, at: now) }
        self.starts = starts
        let rides = rides.filter { vanIndex[$0.ride.vanID] != nil }
        self.rides = rides
        vehicleOf = rides.map { vanIndex[$0.ride.vanID]! }
        func seconds(_ date: Date) -> Double { date.timeIntervalSince(now) }

        // Locations: 0 is "anywhere" (no travel to or from it); known points are shared; an unknown
        // point is its own, with the estimator's unknown legs.
        var locationOf: [Coordinate: Int] = [:]
        var points: [Coordinate?] = [nil]
        var partner: [Int: Int] = [:]
        func location(_ coordinate: Coordinate?, anywhere: Bool = false) -> Int {
            guard let coordinate else {
                if anywhere { return 0 }
                points.append(nil)
                return points.count - 1
            }
            if let known = locationOf[coordinate] { return known }
            points.append(coordinate)
            locationOf[coordinate] = points.count - 1
            return points.count - 1
        }

        // Node 0: the end of every route ("anywhere"); 1...vans: each van's start.
        var nodes = [RouteNode(window: .unbounded)]
        var nodeLocations = [0]
        var vehicles: [RouteVehicle] = []
        for (index, van) in vans.enumerated() {
            let leaves = seconds(starts[index].at)
            nodes.append(RouteNode(window: TimeWindow(earliest: leaves, latest: .infinity)))
            nodeLocations.append(location(starts[index].place, anywhere: true))
            vehicles.append(
                RouteVehicle(
                    capacity: Capacity(seats: van.seats, wheelchairs: van.wheelchairPositions),
                    startDepot: index + 1, endDepot: 0,
                    availability: TimeWindow(earliest: leaves, latest: .infinity)))
        }
        var requests: [RouteRequest] = []
        var strictPickup: [TimeWindow] = [], strictDropoff: [TimeWindow] = [], strictRide: [Double] = []
        for (index, road) in rides.enumerated() {
            let ride = road.ride, vehicle = vehicleOf[index]
            let promised = TimeWindow(earliest: seconds(ride.promise.window.start), latest: seconds(ride.promise.window.end))
            let boarding = RouteDay.boarding(estimator, wheelchair: ride.wheelchair)
            let alighting = RouteDay.alighting(estimator, wheelchair: ride.wheelchair)
            // An arrive-by rider is picked up from her planned pickup on (the time she was told; the
            // driver waits for it, as the no-show rule does).
            var pickupWindow = ride.promise.kind == .pickup ? promised : TimeWindow(earliest: seconds(ride.pickupAt), latest: .infinity)
            let dropoffWindow = ride.promise.kind == .arriveBy ? promised : .unbounded
            // The engine measures ride time from the end of boarding to the start of alighting; the
            // database measures planned drop-off minus planned pickup. A second absorbs rounding.
            var rideLimit = ride.maxRideTime.isFinite ? max(0, ride.maxRideTime - boarding - 1) : .infinity
            let load = Capacity(
                seats: Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions),
                wheelchairs: ride.wheelchair ? 1 : 0)
            switch road.progress {
            case .aboard:
                // Picked up: the rider is in the van at its start. The planned pickup stays, so the
                // drop-off must come within the limit of it (and of the boarding, which is later or equal).
                let leaves = seconds(starts[vehicle].at)
                pickupWindow = TimeWindow(earliest: leaves, latest: leaves)
                rideLimit = ride.maxRideTime.isFinite ? seconds(ride.pickupAt) + ride.maxRideTime - 1 - leaves : .infinity
                nodes.append(RouteNode(serviceDuration: 0, window: pickupWindow))
                nodeLocations.append(nodeLocations[vehicle + 1])
            case .arrived, .waiting:
                nodes.append(RouteNode(serviceDuration: boarding, window: pickupWindow))
                nodeLocations.append(location(ride.pickup))
            }
            nodes.append(RouteNode(serviceDuration: alighting, window: dropoffWindow))
            nodeLocations.append(location(ride.dropoff))
            if ride.pickup == nil, ride.dropoff == nil, !road.isAboard {
                partner[nodeLocations[nodeLocations.count - 2]] = nodeLocations[nodeLocations.count - 1]
            }
            let locked: Bool = {
                if case .waiting = road.progress { return road.ride.vanPinned }  // a dispatcher's van stays
                return true
            }()
            requests.append(
                RouteRequest(
                    pickup: nodes.count - 2, dropoff: nodes.count - 1, load: load,
                    maxRideTime: rideLimit, locked: locked))
            strictPickup.append(pickupWindow)
            strictDropoff.append(dropoffWindow)
            strictRide.append(rideLimit)
        }
        self.strictPickup = strictPickup
        self.strictDropoff = strictDropoff
        self.strictRide = strictRide

        let count = points.count
        var times = [Double](repeating: 0, count: count * count)
        for from in 1..<max(1, count) {
            for to in 1..<count where to != from {
                if partner[from] == to {
                    times[from * count + to] = estimator.unknownLegDuration
                } else {
                    times[from * count + to] = estimator.deadhead(from: points[from], to: points[to])
                }
            }
        }
        let time = { (from: Int, to: Int) -> Double in times[from * count + to] }
        let metric = count <= RouteDay.metricCheckLimit && TravelMatrix.isMetric(count: count, from: 1, time: time)
        travel = TravelMatrix(locations: nodeLocations, locationCount: count, time: time, triangleInequality: metric)
        baseNodes = nodes
        self.requests = requests
        self.vehicles = vehicles

        // Each van's route: aboard pickups (in request order), the pickup it stands at, then the
        // remaining stops by planned time (a drop-off before a pickup at the same second).
        var routes = vans.indices.map { VehicleRoute(vehicle: $0) }
        var rest: [[(at: Date, code: Int)]] = Array(repeating: [], count: vans.count)
        var standing: [[Int]] = Array(repeating: [], count: vans.count)
        for (index, road) in rides.enumerated() {
            let vehicle = vehicleOf[index]
            switch road.progress {
            case .aboard: routes[vehicle].stops.append(.pickup(index))
            case .arrived: standing[vehicle].append(RouteStop.pickup(index).code)
            case .waiting: rest[vehicle].append((road.ride.pickupAt, RouteStop.pickup(index).code))
            }
            rest[vehicle].append((max(road.ride.dropoffAt, road.ride.pickupAt), RouteStop.dropoff(index).code))
        }
        for vehicle in vans.indices {
            let sorted = rest[vehicle].sorted { a, b in
                if a.at != b.at { return a.at < b.at }
                // At the same second a drop-off first, unless it is the same ride's.
                if a.code >> 1 == b.code >> 1 { return a.code < b.code }
                let aDrop = a.code & 1, bDrop = b.code & 1
                return aDrop != bDrop ? aDrop > bDrop : a.code < b.code
            }
            routes[vehicle].stops += standing[vehicle].map(RouteStop.init(code:)) + sorted.map { RouteStop(code: $0.code) }
            routes[vehicle].lockedPrefixCount = routes[vehicle].stops.count - sorted.count
        }
        plan = RoutePlan(routes: routes, unassigned: [])
    }

    /// The problem with every promise as given, but for each request its pickup's and drop-off's
    /// latest times and its ride-time limit raised to at least the given ones (nil: as promised),
    /// then its promised stop's latest time (the pickup's, or an arrive-by drop-off's) brought
    /// forward by `spare` seconds (never before the window's start): the slack it must keep; and
    /// then its pickup's latest time brought forward to `held` (nil: not held; never before the
    /// pickup's earliest time): the time a told rider was given.
    func problem(
        latestPickup: [Double?] = [], latestDropoff: [Double?] = [], maxRide: [Double?] = [], spare: [Double] = [],
        held: [Double?] = []
    ) -> RoutingProblem {
        var nodes = baseNodes
        var requests = self.requests
        for index in requests.indices {
            if index < latestPickup.count, let latest = latestPickup[index] {
                nodes[requests[index].pickup].window.latest = max(strictPickup[index].latest, latest)
            }
            if index < latestDropoff.count, let latest = latestDropoff[index] {
                nodes[requests[index].dropoff].window.latest = max(strictDropoff[index].latest, latest)
            }
            if index < spare.count, spare[index] > 0 {
                let node = rides[index].ride.promise.kind == .arriveBy ? requests[index].dropoff : requests[index].pickup
                let window = nodes[node].window
                if window.latest.isFinite { nodes[node].window.latest = max(window.earliest, window.latest - spare[index]) }
            }
            if index < held.count, let told = held[index] {
                let window = nodes[requests[index].pickup].window
                nodes[requests[index].pickup].window.latest = max(window.earliest, min(window.latest, told))
            }
            if index < maxRide.count, let limit = maxRide[index] {
                requests[index].maxRideTime = max(strictRide[index], limit)
            }
        }
        return RoutingProblem(nodes: nodes, requests: requests, vehicles: vehicles, travel: travel)
    }

    /// The date of engine time `seconds`, to the second.
    func date(_ seconds: Double) -> Date {
        origin.addingTimeInterval(seconds.rounded())
    }
}
