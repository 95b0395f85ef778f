import Foundation

/// What a rider is promised: a window, not an instant. The van arrives at the pickup within
/// the window (`pickup`), or the rider arrives at the drop-off within it (`arriveBy`).
/// The planner may move the planned stops anywhere inside it; changing it is a dispatcher's
/// re-timing, and the rider hears of it.
public struct RidePromise: Hashable, Sendable, Codable {
    /// Which stop the window is on.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// "Pick me up at 3:00 PM": the van arrives at the pickup between 3:00 and 3:00 + W.
        case pickup
        /// "Get me there by 3:00 PM": the van arrives at the drop-off between 3:00 − W and 3:00.
        case arriveBy = "arrive_by"
    }

    /// Pickup or arrive-by.
    public var kind: Kind
    /// The promised window for that stop.
    public var window: DateInterval

    /// A promise of `kind` with `window`.
    public init(kind: Kind, window: DateInterval) {
        self.kind = kind
        self.window = window
    }

    /// The promise for a rider who asked for `time`: `[time, time + width]` for a pickup,
    /// `[time − width, time]` for an arrival.
    public init(kind: Kind, asked time: Date, width: TimeInterval) {
        self.kind = kind
        switch kind {
        case .pickup: window = DateInterval(start: time, duration: max(0, width))
        case .arriveBy: window = DateInterval(start: time.addingTimeInterval(-max(0, width)), end: time)
        }
    }

    /// The time the rider asked for: the window's start for a pickup, its end for an arrival.
    public var asked: Date { kind == .pickup ? window.start : window.end }

    /// When the rider may be waiting for the van or aboard it while this promise is kept: from the
    /// window's start to its end plus the longest ride allowed for a pickup; for an arrival, from
    /// the window's start less the longest ride to its end. Two rides of one rider whose spans
    /// overlap could need her in two vans at once.
    public func riderSpan(maxRideTime: TimeInterval) -> DateInterval {
        switch kind {
        case .pickup: DateInterval(start: window.start, end: window.end.addingTimeInterval(max(0, maxRideTime)))
        case .arriveBy: DateInterval(start: window.start.addingTimeInterval(-max(0, maxRideTime)), end: window.end)
        }
    }

    /// The end of the window on `stop` when the promise is on that stop (a pickup ride's pickup, an
    /// arrive-by ride's drop-off); nil on the ride's other stop, which carries no promise.
    public func windowEnd(at stop: StopKind) -> Date? {
        (stop == .pickup) == (kind == .pickup) ? window.end : nil
    }

    /// Whether planned times keep the promise.
    public func isKept(pickupAt: Date, dropoffAt: Date) -> Bool {
        window.contains(kind == .pickup ? pickupAt : dropoffAt)
    }
}

/// How long a ride may take, relative to the direct trip.
///
/// The default, the longer of twice the direct trip and the direct trip plus 15 minutes, follows
/// common paratransit practice: a shared ride should be comparable to riding alone, so a short
/// campus hop (7 minutes) never takes more than 22, and a long one at most doubles. A setting.
public struct RideTimeLimit: Hashable, Sendable {
    /// The limit as a multiple of the direct trip.
    public var factor: Double
    /// The limit as the direct trip plus this much.
    public var extra: TimeInterval

    /// A limit of `max(direct × factor, direct + extra)`.
    public init(factor: Double = 2, extra: TimeInterval = 900) {
        self.factor = factor
        self.extra = extra
    }

    /// The longest ride allowed for a direct trip of `direct` seconds.
    public func limit(direct: TimeInterval) -> TimeInterval {
        max(direct * factor, direct + extra)
    }
}
