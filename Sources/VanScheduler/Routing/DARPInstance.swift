/// A dial-a-ride benchmark instance in Cordeau's text format (2006, "a" and "b" sets).
///
/// First line `K n T Q L`: vehicles, requests, maximum route duration, vehicle
/// capacity, maximum ride time. Then `2n + 2` lines `id x y d q e l`: node 0 is
/// the start depot, nodes 1...n pickups, n + 1...2n drop-offs, 2n + 1 the end
/// depot; `d` service time, `q` load change, `[e, l]` window on the start of
/// service. Travel time and cost are the Euclidean distance, unrounded.
public struct DARPInstance: Hashable, Sendable {
    /// One node line of the file.
    public struct Node: Hashable, Sendable {
        /// Horizontal coordinate.
        public var x: Double
        /// Vertical coordinate.
        public var y: Double
        /// Service duration.
        public var service: Double
        /// Load change: positive at a pickup, negative at a drop-off.
        public var load: Int
        /// Earliest start of service.
        public var earliest: Double
        /// Latest start of service.
        public var latest: Double

        /// A node line's values.
        public init(x: Double, y: Double, service: Double, load: Int, earliest: Double, latest: Double) {
            self.x = x
            self.y = y
            self.service = service
            self.load = load
            self.earliest = earliest
            self.latest = latest
        }
    }

    /// Why a file is not a valid instance.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line number where reading failed.
        public var line: Int
        /// What was wrong there.
        public var reason: String

        /// "line N: reason".
        public var description: String { "line \(line): \(reason)" }
    }

    /// Number of vehicles `K`.
    public var vehicleCount: Int
    /// Number of requests `n`.
    public var requestCount: Int
    /// Maximum route duration `T`.
    public var maxRouteDuration: Double
    /// Vehicle capacity `Q`.
    public var capacity: Int
    /// Maximum ride time `L`.
    public var maxRideTime: Double
    /// The `2n + 2` nodes, by id.
    public var nodes: [Node]

    /// Parses the text of an instance file.
    public init(parsing text: String) throws(ParseError) {
        let lines = text.split(whereSeparator: \.isNewline).enumerated()
            .map { (number: $0.offset + 1, fields: $0.element.split(whereSeparator: \.isWhitespace)) }
            .filter { !$0.fields.isEmpty }
        guard let header = lines.first else { throw ParseError(line: 1, reason: "empty file") }
        guard header.fields.count >= 5,
            let vehicles = Int(header.fields[0]), let requests = Int(header.fields[1]),
            let duration = Double(header.fields[2]), let capacity = Int(header.fields[3]),
            let ride = Double(header.fields[4]), vehicles >= 0, requests >= 0
        else {
            throw ParseError(line: header.number, reason: "expected header `K n T Q L`")
        }
        guard lines.count >= 2 * requests + 3 else {
            throw ParseError(line: lines.last?.number ?? 1, reason: "expected \(2 * requests + 2) node lines")
        }
        var nodes: [Node] = []
        for (index, line) in lines[1...(2 * requests + 2)].enumerated() {
            let numbers = line.fields.prefix(7).compactMap { Double($0) }
            guard line.fields.count >= 7, numbers.count == 7, Int(numbers[0]) == index else {
                throw ParseError(line: line.number, reason: "expected node \(index) as `id x y d q e l`")
            }
            nodes.append(
                Node(
                    x: numbers[1], y: numbers[2], service: numbers[3], load: Int(numbers[4]),
                    earliest: numbers[5], latest: numbers[6]))
        }
        vehicleCount = vehicles
        requestCount = requests
        maxRouteDuration = duration
        self.capacity = capacity
        maxRideTime = ride
        self.nodes = nodes
    }

    /// The instance as a routing problem: request `r` (0-based) is pickup node
    /// `r + 1` and drop-off node `n + r + 1`; every vehicle runs from node 0 to node `2n + 1`.
    public var problem: RoutingProblem {
        let n = requestCount
        let travel = TravelMatrix(euclidean: nodes.map { (x: $0.x, y: $0.y) })
        return RoutingProblem(
            nodes: nodes.map {
                RouteNode(serviceDuration: $0.service, window: TimeWindow(earliest: $0.earliest, latest: $0.latest))
            },
            requests: (0..<n).map {
                RouteRequest(
                    pickup: $0 + 1, dropoff: n + $0 + 1, load: Capacity([nodes[$0 + 1].load]),
                    maxRideTime: maxRideTime)
            },
            vehicles: Array(
                repeating: RouteVehicle(
                    capacity: Capacity([capacity]), startDepot: 0,
                    endDepot: 2 * n + 1, maxDuration: maxRouteDuration),
                count: vehicleCount),
            travel: travel
        )
    }

    /// A route as file node ids, depots included: `0, ..., 2n + 1`.
    public func nodeIDs(of route: VehicleRoute) -> [Int] {
        [0] + route.stops.map { $0.kind == .pickup ? $0.request + 1 : requestCount + $0.request + 1 } + [2 * requestCount + 1]
    }
}
