import Foundation
import VanDomain

/// A feasible alternative pickup time offered when the requested one is not.
public struct Suggestion: Hashable, Sendable, Codable {
    /// The suggested pickup time, on the scheduler's step grid.
    public var pickupAt: Date
    /// The estimated drop-off for that pickup.
    public var dropoffAt: Date
    /// The van that would take the ride.
    public var vanID: Int64
    /// Whether the suggestion is within the ADA negotiation window (±1 hour by default)
    /// of the requested time.
    public var withinADAWindow: Bool
    /// Signed whole minutes from the requested time (negative = earlier), rounded to nearest.
    public var minutesFromRequested: Int

    /// Creates a suggestion.
    public init(pickupAt: Date, dropoffAt: Date, vanID: Int64, withinADAWindow: Bool, minutesFromRequested: Int) {
        self.pickupAt = pickupAt
        self.dropoffAt = dropoffAt
        self.vanID = vanID
        self.withinADAWindow = withinADAWindow
        self.minutesFromRequested = minutesFromRequested
    }
}
