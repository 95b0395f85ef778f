import Foundation
import VanDomain

/// A feasible alternative pickup time offered when the requested one is not.
public struct Suggestion: Hashable, Sendable, Codable {
    /// The planned pickup if the rider books the suggested time.
    public var pickupAt: Date
    /// The planned arrival at the drop-off then.
    public var dropoffAt: Date
    /// The time to book, on the scheduler's step grid: a pickup time, or an arrival time for
    /// an arrive-by ride (book it again with this exact value).
    public var asked: Date
    /// Whether `asked` is a pickup or an arrival time.
    public var promise: RidePromise.Kind
    /// The van that would take the ride.
    public var vanID: Int64
    /// Whether the suggestion is within the ADA negotiation window (±1 hour by default)
    /// of the requested time.
    public var withinADAWindow: Bool
    /// Signed whole minutes from the requested time (negative = earlier), rounded to nearest.
    public var minutesFromRequested: Int

    /// Creates a suggestion.
    public init(
        pickupAt: Date, dropoffAt: Date, vanID: Int64, withinADAWindow: Bool, minutesFromRequested: Int,
        asked: Date? = nil, promise: RidePromise.Kind = .pickup
    ) {
        self.pickupAt = pickupAt
        self.dropoffAt = dropoffAt
        self.asked = asked ?? pickupAt
        self.promise = promise
        self.vanID = vanID
        self.withinADAWindow = withinADAWindow
        self.minutesFromRequested = minutesFromRequested
    }
}
