/// Why a route or plan is not feasible.
///
/// Positions count the start depot as 0, the stops as 1 through `stops.count`,
/// and the end depot as `stops.count + 1`.
public enum RouteViolation: Error, Hashable, Sendable {
    /// The request's stops are missing, duplicated, or on a route with an unknown index.
    case malformedRequest(Int)
    /// The request's drop-off comes before its pickup.
    case dropoffBeforePickup(Int)
    /// The load after the stop at this position exceeds the vehicle's capacity.
    case overCapacity(position: Int)
    /// Even served as early as every constraint allows, the stop at this position starts after its window.
    case windowMissed(position: Int)
    /// Ride-time and duration limits contradict each other along the route.
    case inconsistentTimes
    /// The request is on more than one route, or both on a route and unassigned.
    case servedTwice(Int)
    /// The request is on no route and not listed as unassigned.
    case missingRequest(Int)
    /// The plan's routes do not match the problem's vehicles one to one.
    case wrongVehicle(Int)
}
