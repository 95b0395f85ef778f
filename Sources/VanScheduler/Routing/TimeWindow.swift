/// A closed interval of allowed times, in the problem's time unit.
public struct TimeWindow: Hashable, Sendable {
    /// The earliest allowed time.
    public var earliest: Double
    /// The latest allowed time.
    public var latest: Double

    /// A window from `earliest` to `latest`, both included.
    public init(earliest: Double, latest: Double) {
        self.earliest = earliest
        self.latest = latest
    }

    /// A window that allows every time.
    public static let unbounded = TimeWindow(earliest: -.infinity, latest: .infinity)

    /// The intersection of two windows (possibly empty: `earliest > latest`).
    public func intersection(_ other: TimeWindow) -> TimeWindow {
        TimeWindow(earliest: max(earliest, other.earliest), latest: min(latest, other.latest))
    }
}
