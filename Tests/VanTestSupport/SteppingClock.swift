import Foundation
import Synchronization
import VanServices

/// A clock that moves `step` forward each time it is read. As a search's budget clock it makes
/// the search's length a count of iterations (the improver reads the clock once per iteration),
/// so a test finds the same plan on a loaded machine as on a quiet one.
public final class SteppingClock: TimeSource {
    private let current: Mutex<Date>
    private let step: TimeInterval

    /// Starts at `start` and moves `step` seconds on every read.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_953_600), step: TimeInterval) {
        current = Mutex(start)
        self.step = step
    }

    /// A budget of `seconds` read this way ends after `iterations` reads.
    public convenience init(iterations: Int, perBudget seconds: Double) {
        self.init(step: seconds / Double(iterations))
    }

    /// The time, then one step on.
    public var now: Date {
        current.withLock { now in
            defer { now = now.addingTimeInterval(step) }
            return now
        }
    }
}
