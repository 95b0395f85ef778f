import Foundation
import Synchronization
import VanServices

/// A clock that stands still until a test moves it, so expiry and lockout tests never sleep.
public final class ManualClock: TimeSource {
    private let current: Mutex<Date>

    /// Starts at `start` (default: Sunday 2026-11-29 12:00 UTC, 07:00 in New York).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_953_600)) {
        current = Mutex(start)
    }

    /// The time the test set.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(interval) }
    }

    /// Sets the clock.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
