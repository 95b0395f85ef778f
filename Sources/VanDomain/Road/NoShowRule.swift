import Foundation

/// When a driver may mark a rider a no-show: the van arrived at the pickup no later than the
/// end of the pickup window, and has waited ``wait`` since the later of its arrival and the
/// window's start. For an arrive-by ride the pickup window starts at the planned pickup time and
/// is as wide as the promise's window.
public struct NoShowRule: Sendable, Hashable {
    /// How long the van waits at the pickup (`VAND_NO_SHOW_WAIT`, default 5 minutes).
    public var wait: TimeInterval

    /// A rule with `wait` seconds of waiting.
    public init(wait: TimeInterval) { self.wait = wait }

    /// The window the van must arrive in for a no-show to be allowed.
    public static func pickupWindow(promise: RidePromise, plannedPickup: Date) -> DateInterval {
        switch promise.kind {
        case .pickup: promise.window
        case .arriveBy: DateInterval(start: plannedPickup, duration: promise.window.duration)
        }
    }

    /// Why a no-show is not allowed yet (or at all); nil when it is.
    public enum Refusal: Sendable, Hashable {
        /// The van has not tapped "arrived" at the pickup.
        case notArrived
        /// The van arrived after the pickup window ended: the rider cannot be held to it.
        case arrivedAfterWindow(windowEnd: Date)
        /// The wait has not passed; allowed from the date.
        case waiting(until: Date)
    }

    /// The first moment a no-show is allowed for a van that arrived at `arrivedAt`; nil when the
    /// arrival came after the window (never allowed).
    public func allowedFrom(arrivedAt: Date, window: DateInterval) -> Date? {
        guard arrivedAt <= window.end else { return nil }
        return max(arrivedAt, window.start).addingTimeInterval(wait)
    }

    /// Whether a no-show may be tapped at `now`: nil when it may, else why not.
    public func refusal(arrivedAt: Date?, window: DateInterval, now: Date) -> Refusal? {
        guard let arrivedAt else { return .notArrived }
        guard let from = allowedFrom(arrivedAt: arrivedAt, window: window) else { return .arrivedAfterWindow(windowEnd: window.end) }
        return now >= from ? nil : .waiting(until: from)
    }
}
