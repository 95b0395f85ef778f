import Foundation

/// How good a day's routes are, as a dispatcher reads it.
public struct PlanMeasures: Hashable, Sendable, Codable {
    /// Rides on the routes.
    public var rides: Int
    /// Driving, in seconds.
    public var driving: TimeInterval
    /// Vans with at least one ride.
    public var vansUsed: Int
    /// Van time from each route's first stop to its last, in seconds, summed over vans.
    public var busy: TimeInterval

    /// Measures.
    public init(rides: Int, driving: TimeInterval, vansUsed: Int, busy: TimeInterval) {
        self.rides = rides
        self.driving = driving
        self.vansUsed = vansUsed
        self.busy = busy
    }

    /// Rides per van-hour of route (0 with no route time).
    public var ridesPerVanHour: Double { busy > 0 ? Double(rides) / (busy / 3_600) : 0 }
}
