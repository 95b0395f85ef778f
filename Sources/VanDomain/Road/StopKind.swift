/// Which end of a ride a stop is: where the rider is picked up, or set down.
public enum StopKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// The ride's pickup.
    case pickup
    /// The ride's drop-off.
    case dropoff
}
