import Foundation

/// Where stateful code reads the current time. Production uses ``SystemTimeSource``;
/// tests pass a clock they move by hand, so expiry and lockout tests never sleep.
public protocol TimeSource: Sendable {
    /// The current instant.
    var now: Date { get }
}

/// The machine's wall clock.
public struct SystemTimeSource: TimeSource {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }
}
