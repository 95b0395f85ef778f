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
            precondition(nodes.indices.contains(request.pickup) && nodes.indices.contains(request.dropoff),
                         "request node out of range")
        }
        for vehicle in vehicles {
            precondition(nodes.indices.contains(vehicle.startDepot) && nodes.indices.contains(vehicle.endDepot),
                         "depot out of range")
        }
        self.nodes = nodes
        self.requests = requests
        self.vehicles = vehicles
        self.travel = travel
        self.tables = RoutingTables(nodes: nodes, requests: requests, travel: travel)
    }

    /// The node visited by a stop.
    public func node(of stop: RouteStop) -> Int {
        stop.kind == .pickup ? requests[stop.request].pickup : requests[stop.request].dropoff
    }
}
