import Foundation
import VanDomain

/// A van's latest known position (`van_positions`, sql/0028).
public struct VanPosition: Sendable, Hashable {
    /// Who sent a position: the driver's phone or the van's tracker.
    public enum Source: String, Sendable, Hashable, Codable {
        /// The phone of the driver on shift.
        case driver
        /// A vehicle tracker with the van's token.
        case tracker
    }

    /// The van.
    public let vanID: Int64
    /// When the fix was taken.
    public let at: Date
    /// Where the van was.
    public let coordinate: Coordinate
    /// How sure, in metres.
    public let accuracyMeters: Double?
    /// Who sent it.
    public let source: Source

    /// Creates a value.
    public init(vanID: Int64, at: Date, coordinate: Coordinate, accuracyMeters: Double?, source: Source) {
        self.vanID = vanID
        self.at = at
        self.coordinate = coordinate
        self.accuracyMeters = accuracyMeters
        self.source = source
    }

    /// How old the fix is at `now`.
    public func age(at now: Date) -> TimeInterval { now.timeIntervalSince(at) }

    /// Whether the position counts as unknown at `now`: older than `staleAfter` (``RoadSettings/positionStale``).
    public func isStale(at now: Date, staleAfter: TimeInterval) -> Bool { age(at: now) > staleAfter }
}
