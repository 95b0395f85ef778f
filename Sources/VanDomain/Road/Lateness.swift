import Foundation

/// How late a stop runs against its promise: the one rule every surface reads (the rider's ETA,
/// the late alert and its event, the day board, the map, `vanadmin vans status`, the on-time report).
///
/// - The promise is the end of the stop's window: a pickup ride's pickup, an arrive-by ride's
///   drop-off. The other stop of a ride carries none, and has no lateness.
/// - The time judged is the van's actual arrival once tapped, else its ETA, else (the van not on the
///   road) now, once now is past the window's end: a van not there yet is at least that late.
/// - Lateness counts whole minutes after the window's end, rounded down, and a stop is *late* from
///   the first whole minute. An ETA a few seconds past "promised by 9:20 AM" reads on time everywhere,
///   as the clock times the rider is shown ("about 9:20 AM") do.
///
/// How far a stop runs behind the planner's time is a different figure, ``behindPlanMinutes(_:plannedAt:)``,
/// named apart so that no page shows one for the other.
public struct Lateness: Sendable, Hashable, Comparable {
    /// Seconds after the window's end (0 inside it).
    public let seconds: TimeInterval

    /// Lateness of a van at the stop at `at`, against a window ending at `windowEnd`.
    public init(at: Date, windowEnd: Date) {
        seconds = max(0, at.timeIntervalSince(windowEnd))
    }

    /// Inside the window.
    public static let onTime = Lateness(at: .distantPast, windowEnd: .distantPast)

    /// Whole minutes after the window's end, rounded down (0: on time).
    public var minutes: Int { Int((seconds / 60).rounded(.down)) }

    /// At least one whole minute after the window's end.
    public var isLate: Bool { minutes >= 1 }

    /// "On time" or "8 min late".
    public var words: String { isLate ? "\(minutes) min late" : "On time" }

    /// The stop's lateness by the rule above: nil when the stop carries no promise (`windowEnd`
    /// nil), or nothing says when the van is there yet (no tap, no ETA, and the window still open).
    public static func of(windowEnd: Date?, arrived: Date?, eta: Date?, now: Date) -> Lateness? {
        guard let windowEnd else { return nil }
        if let seen = arrived ?? eta { return Lateness(at: seen, windowEnd: windowEnd) }
        return now > windowEnd ? Lateness(at: now, windowEnd: windowEnd) : nil
    }

    /// Whole minutes (rounded down, never negative) the van at the stop at `at` runs behind the
    /// planner's time `plannedAt`: the dispatcher's second figure, not a promise.
    public static func behindPlanMinutes(_ at: Date, plannedAt: Date) -> Int {
        Int((max(0, at.timeIntervalSince(plannedAt)) / 60).rounded(.down))
    }

    public static func < (a: Lateness, b: Lateness) -> Bool { a.seconds < b.seconds }
}
