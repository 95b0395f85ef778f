import Foundation

/// How a ride was booked.
public enum RideKind: String, Codable, Sendable, CaseIterable {
    /// "Pick me up now": booked for a few minutes from the request.
    case onDemand = "on_demand"
    /// Booked ahead for a chosen pickup time (possibly one of a weekly series).
    case scheduled
}
