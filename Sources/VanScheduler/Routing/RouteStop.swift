/// One stop of a route: the pickup or the drop-off of a request.
public struct RouteStop: Hashable, Sendable {
    /// Whether the stop boards or alights the rider.
    public enum Kind: Hashable, Sendable {
        /// The rider boards.
        case pickup
        /// The rider alights.
        case dropoff
    }

    /// The request served (index into `RoutingProblem.requests`).
    public var request: Int
    /// Pickup or drop-off.
    public var kind: Kind

    /// A stop for a request.
    public init(request: Int, kind: Kind) {
        self.request = request
        self.kind = kind
    }

    /// The pickup stop of a request.
    public static func pickup(_ request: Int) -> RouteStop {
        RouteStop(request: request, kind: .pickup)
    }

    /// The drop-off stop of a request.
    public static func dropoff(_ request: Int) -> RouteStop {
        RouteStop(request: request, kind: .dropoff)
    }

    /// Compact code used inside the engine: `2 * request`, plus 1 for a drop-off.
    var code: Int { request &* 2 &+ (kind == .dropoff ? 1 : 0) }

    init(code: Int) {
        self.init(request: code >> 1, kind: code & 1 == 0 ? .pickup : .dropoff)
    }
}
