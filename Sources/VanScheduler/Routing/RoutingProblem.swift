/// A dial-a-ride problem: nodes, requests between them, vehicles, and travel between nodes.
///
/// Values only: build it, hand it to the evaluator, insertion and improver.
/// Node, request and vehicle numbers are indices into the arrays.
public struct RoutingProblem: Sendable {
    /// Every node: depots, pickups and drop-offs.
    public let nodes: [RouteNode]
    /// The trips to serve.
    public let requests: [RouteRequest]
    /// The vehicles available; a plan has one route per vehicle.
    public let vehicles: [RouteVehicle]
    /// Travel time and cost between nodes.
    public let travel: TravelMatrix
    let tables: RoutingTables

    /// A problem over the given nodes; indices in requests and vehicles must be valid.
    public init(nodes: [RouteNode], requests: [RouteRequest], vehicles: [RouteVehicle], travel: TravelMatrix) {
        precondition(travel.count == nodes.count, "travel matrix must cover every node")
        for request in requests {
            precondition(
                nodes.indices.contains(request.pickup) && nodes.indices.contains(request.dropoff),
                "request node out of range")
        }
        for vehicle in vehicles {
            precondition(
                nodes.indices.contains(vehicle.startDepot) && nodes.indices.contains(vehicle.endDepot),
                "depot out of range")
        }
        self.nodes = nodes
        self.requests = requests
        self.vehicles = vehicles
        self.travel = travel
        self.tables = RoutingTables(nodes: nodes, requests: requests, travel: travel)
    }

    /// The same problem with `request`'s pickup and drop-off windows and ride-time limit replaced:
    /// a copy of three number tables, not a rebuilt problem.
    func replacingPromise(of request: Int, pickup: TimeWindow, dropoff: TimeWindow, maxRideTime: Double) -> RoutingProblem {
        var nodes = self.nodes
        var requests = self.requests
        let pickupNode = requests[request].pickup, dropoffNode = requests[request].dropoff
        nodes[pickupNode].window = pickup
        nodes[dropoffNode].window = dropoff
        requests[request].maxRideTime = maxRideTime
        let tables = self.tables.replacing(
            pickupNode: pickupNode, pickup: pickup, dropoffNode: dropoffNode, dropoff: dropoff,
            request: request, maxRide: maxRideTime)
        return RoutingProblem(nodes: nodes, requests: requests, vehicles: vehicles, travel: travel, tables: tables)
    }

    private init(nodes: [RouteNode], requests: [RouteRequest], vehicles: [RouteVehicle], travel: TravelMatrix, tables: RoutingTables) {
        self.nodes = nodes
        self.requests = requests
        self.vehicles = vehicles
        self.travel = travel
        self.tables = tables
    }

    /// The node visited by a stop.
    public func node(of stop: RouteStop) -> Int {
        stop.kind == .pickup ? requests[stop.request].pickup : requests[stop.request].dropoff
    }
}
