/// Travel times and travel costs between every ordered pair of nodes.
///
/// Times and costs may differ (minutes versus kilometres); when only times are
/// given, cost equals time. The engine prunes insertions faster when travel
/// times satisfy the triangle inequality; `satisfiesTriangleInequality` says
/// whether it may rely on that.
public struct TravelMatrix: Sendable {
    /// The number of nodes.
    public let count: Int
    /// True when `time(a, c) <= time(a, b) + time(b, c)` for all nodes (within 1e-9).
    public let satisfiesTriangleInequality: Bool
    /// The number of distinct locations the nodes stand at.
    let locationCount: Int
    /// Each node's location (index into the location matrices).
    let location: [Int]
    /// Times and costs between locations, `locationCount`² each, row by row.
    let times: [Double]
    let costs: [Double]

    /// A matrix filled from closures over node indices (each node its own location).
    ///
    /// - Parameter triangleInequality: whether times are metric; `nil` checks it
    ///   (cubic in `count`, done only up to 400 nodes, otherwise assumed false).
    public init(
        count: Int,
        time: (Int, Int) -> Double,
        cost: ((Int, Int) -> Double)? = nil,
        triangleInequality: Bool? = nil
    ) {
        self.init(locations: Array(0..<count), locationCount: count, time: time, cost: cost, triangleInequality: triangleInequality)
    }

    /// A matrix over shared locations: node `i` stands at `locations[i]`, and the closures give
    /// travel between locations. Many stops at few places (a campus) then cost a small matrix,
    /// not one quadratic in the number of stops.
    public init(
        locations: [Int],
        locationCount: Int,
        time: (Int, Int) -> Double,
        cost: ((Int, Int) -> Double)? = nil,
        triangleInequality: Bool? = nil
    ) {
        precondition(locations.allSatisfy { (0..<locationCount).contains($0) }, "node location out of range")
        var times = [Double](repeating: 0, count: locationCount * locationCount)
        for from in 0..<locationCount {
            for to in 0..<locationCount {
                times[from * locationCount + to] = time(from, to)
            }
        }
        var costs = times
        if let cost {
            for from in 0..<locationCount {
                for to in 0..<locationCount {
                    costs[from * locationCount + to] = cost(from, to)
                }
            }
        }
        self.count = locations.count
        self.location = locations
        self.locationCount = locationCount
        self.times = times
        self.costs = costs
        self.satisfiesTriangleInequality =
            triangleInequality
            ?? (locationCount <= 400 && TravelMatrix.isMetric(times, count: locationCount))
    }

    /// Euclidean distances between points, used as both time and cost (no rounding).
    public init(euclidean points: [(x: Double, y: Double)]) {
        self.init(
            count: points.count,
            time: { from, to in
                let dx = points[from].x - points[to].x
                let dy = points[from].y - points[to].y
                return (dx * dx + dy * dy).squareRoot()
            },
            triangleInequality: true
        )
    }

    /// The travel time from one node to another.
    @inline(__always)
    public func time(_ from: Int, _ to: Int) -> Double {
        times[location[from] &* locationCount &+ location[to]]
    }

    /// The travel cost from one node to another.
    @inline(__always)
    public func cost(_ from: Int, _ to: Int) -> Double {
        costs[location[from] &* locationCount &+ location[to]]
    }

    private static func isMetric(_ times: [Double], count: Int) -> Bool {
        isMetric(count: count, from: 0) { times[$0 * count + $1] }
    }

    /// Whether `time` satisfies the triangle inequality (within 1e-9) among locations `first..<count`.
    ///
    /// A route's start and end depot "anywhere" (no travel to or from it) breaks the inequality
    /// but never stands between two stops, so insertion may still rely on it when every other
    /// location satisfies it: check from the first location that is not such a depot.
    static func isMetric(count: Int, from first: Int, time: (Int, Int) -> Double) -> Bool {
        guard first < count else { return true }
        let span = count - first
        var times = [Double](repeating: 0, count: span * span)
        for from in 0..<span {
            for to in 0..<span { times[from * span + to] = time(first + from, first + to) }
        }
        for middle in 0..<span {
            for from in 0..<span {
                let first = times[from * span + middle]
                for to in 0..<span where times[from * span + to] > first + times[middle * span + to] + 1e-9 {
                    return false
                }
            }
        }
        return true
    }
}
