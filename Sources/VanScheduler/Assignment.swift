import Foundation
import VanDomain

/// A feasible placement of a ride: which van, when, and how much idle time it leaves around it.
public struct Assignment: Hashable, Sendable, Codable {
    /// The van that takes the ride.
    public var vanID: Int64
    /// The pickup time.
    public var pickupAt: Date
    /// The estimated drop-off, when the van is free again.
    public var dropoffAt: Date
    /// Slack left before plus after the ride on that van, in seconds; each side is capped at
    /// `Scheduler.idleCap`, which is also what a side with no neighbouring ride counts as.
    public var idleGap: TimeInterval

    /// Creates an assignment.
    public init(vanID: Int64, pickupAt: Date, dropoffAt: Date, idleGap: TimeInterval) {
        self.vanID = vanID
        self.pickupAt = pickupAt
        self.dropoffAt = dropoffAt
        self.idleGap = idleGap
    }
}
