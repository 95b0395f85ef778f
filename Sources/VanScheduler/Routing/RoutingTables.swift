/// Flat copies of a problem's numbers, laid out for the engine's inner loops.
/// A class so that handing it around costs one reference count, not one per array.
final class RoutingTables: Sendable {
    let nodeCount: Int
    let earliest: [Double]
    let latest: [Double]
    let service: [Double]
    let pickupNode: [Int]
    let dropoffNode: [Int]
    let maxRide: [Double]
    let load: [Capacity]
    let locked: [Bool]
    /// Each node's location, and travel between locations (see ``TravelMatrix``).
    let location: [Int]
    let locationCount: Int
    let times: [Double]
    let costs: [Double]
    /// Whether inserting a stop can never make later stops reachable earlier.
    let metric: Bool

    init(nodes: [RouteNode], requests: [RouteRequest], travel: TravelMatrix) {
        nodeCount = nodes.count
        earliest = nodes.map(\.window.earliest)
        latest = nodes.map(\.window.latest)
        service = nodes.map(\.serviceDuration)
        pickupNode = requests.map(\.pickup)
        dropoffNode = requests.map(\.dropoff)
        maxRide = requests.map(\.maxRideTime)
        load = requests.map(\.load)
        locked = requests.map(\.locked)
        location = travel.location
        locationCount = travel.locationCount
        times = travel.times
        costs = travel.costs
        metric = travel.satisfiesTriangleInequality && nodes.allSatisfy { $0.serviceDuration >= 0 }
    }

    private init(copying other: RoutingTables, earliest: [Double], latest: [Double], maxRide: [Double]) {
        nodeCount = other.nodeCount
        self.earliest = earliest
        self.latest = latest
        service = other.service
        pickupNode = other.pickupNode
        dropoffNode = other.dropoffNode
        self.maxRide = maxRide
        load = other.load
        locked = other.locked
        location = other.location
        locationCount = other.locationCount
        times = other.times
        costs = other.costs
        metric = other.metric
    }

    /// These tables with one request's windows and ride-time limit replaced (the other arrays shared).
    func replacing(pickupNode: Int, pickup: TimeWindow, dropoffNode: Int, dropoff: TimeWindow, request: Int, maxRide: Double) -> RoutingTables {
        var earliest = self.earliest, latest = self.latest, maxRides = self.maxRide
        earliest[pickupNode] = pickup.earliest
        latest[pickupNode] = pickup.latest
        earliest[dropoffNode] = dropoff.earliest
        latest[dropoffNode] = dropoff.latest
        maxRides[request] = maxRide
        return RoutingTables(copying: self, earliest: earliest, latest: latest, maxRide: maxRides)
    }

    @inline(__always)
    func time(_ from: Int, _ to: Int) -> Double {
        times[location[from] &* locationCount &+ location[to]]
    }

    @inline(__always)
    func cost(_ from: Int, _ to: Int) -> Double {
        costs[location[from] &* locationCount &+ location[to]]
    }

    /// The node of a stop code (`2 * request`, plus 1 for a drop-off).
    @inline(__always)
    func node(ofCode code: Int) -> Int {
        code & 1 == 0 ? pickupNode[code >> 1] : dropoffNode[code >> 1]
    }
}
