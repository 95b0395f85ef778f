import Foundation

/// When a driver may mark a rider a no-show: the van arrived at the pickup no later than the
/// end of the pickup window, and has waited ``wait`` since the latest of its arrival, the
/// window's start, and the pickup time the rider was last told in a late alert (she may come
/// out for that time, not before). For an arrive-by ride the pickup window starts at the planned pickup time and
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

    /// The first moment a no-show is allowed for a van that arrived at `arrivedAt`, when the rider
    /// was last told the van would reach her at `toldETA` (a late alert's ETA; nil: never told);
    /// nil when the arrival came after the window (never allowed).
    public func allowedFrom(arrivedAt: Date, window: DateInterval, toldETA: Date? = nil) -> Date? {
        guard arrivedAt <= window.end else { return nil }
        return max(arrivedAt, window.start, toldETA ?? window.start).addingTimeInterval(wait)
    }

    /// Whether a no-show may be tapped at `now` (see ``allowedFrom(arrivedAt:window:toldETA:)``):
    /// nil when it may, else why not.
    public func refusal(arrivedAt: Date?, window: DateInterval, toldETA: Date? = nil, now: Date) -> Refusal? {
        guard let arrivedAt else { return .notArrived }
        guard let from = allowedFrom(arrivedAt: arrivedAt, window: window, toldETA: toldETA) else {
            return .arrivedAfterWindow(windowEnd: window.end)
        }
        return now >= from ? nil : .waiting(until: from)
    }
}
