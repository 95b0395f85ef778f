import Foundation

/// Exponential backoff with jitter: attempt n (from 1) waits between half and all of
/// `base · 2^(n-1)`, capped — so loops that failed together do not retry together.
public struct Backoff: Sendable {
    /// The first delay.
    public var base: TimeInterval
    /// The longest delay.
    public var cap: TimeInterval

    /// A backoff from `base` doubling up to `cap`.
    public init(base: TimeInterval, cap: TimeInterval) {
        self.base = base
        self.cap = cap
    }

    /// The delay after the `attempt`-th failure; `unit` in 0...1 picks the point in the jitter range.
    public func delay(afterAttempt attempt: Int, unit: Double = Double.random(in: 0...1)) -> TimeInterval {
        let exponent = Double(max(0, min(attempt - 1, 40)))
        let full = min(cap, base * pow(2, exponent))
        return full / 2 + full / 2 * min(max(unit, 0), 1)
    }
}
