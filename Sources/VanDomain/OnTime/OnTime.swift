import Foundation

/// The on-time rules, in one place: how a stop is judged against its promise, and how rides'
/// times and waits are measured. `docs/on-time.md` says the same in words for the office.
///
/// - A stop with no actual time is *upcoming* while its planned time is still ahead, else
///   *not recorded* — never on time.
/// - A pickup of a ride promised a pickup window is *on time* when the van arrived inside the
///   window (both ends included), *early* before it (by the minutes before its start) and *late*
///   after it by ``Lateness``'s rule: a whole minute or more after its end, as every ETA and alert
///   reads it.
/// - A drop-off of an arrive-by ride is *on time* when the van arrived at or before the window's
///   end (the time the rider asked to be there), else *late* by the same rule.
/// - Other stops (the pickup of an arrive-by ride, the drop-off of a pickup ride) carry no
///   promise of their own: *not measured*.
/// - The van's time at a stop is its "arrived" tap, or the outcome's tap when only that was made.
/// - Ride time: from the "on board" tap to the van's time at the drop-off, against the ride's
///   limit and against the direct ride.
/// - Wait at the stop: from the "arrived" tap to the "on board" tap.
/// - 95th percentile: the nearest-rank one (the smallest value at least 95 % of the values do not exceed).
public enum OnTime {
    /// What a stop came to.
    public enum Verdict: Sendable, Hashable {
        /// Its planned time is still ahead and nothing was recorded.
        case upcoming
        /// Its planned time has passed and no tap stands.
        case notRecorded
        /// Recorded, at a stop that carries no promise.
        case notMeasured
        /// Inside the promise.
        case onTime
        /// Before a pickup window, by this many seconds.
        case early(TimeInterval)
        /// After the window's end, by this many seconds.
        case late(TimeInterval)

        /// The word the CSV and tables use.
        public var word: String {
            switch self {
            case .upcoming: "upcoming"
            case .notRecorded: "not recorded"
            case .notMeasured: ""
            case .onTime: "on time"
            case .early: "early"
            case .late: "late"
            }
        }

        /// Minutes after the window's end (positive), minus the minutes before a pickup window's
        /// start (early), 0 inside; nil when not judged.
        public var minutesLate: Double? {
            switch self {
            case .onTime: 0
            case .early(let seconds): -seconds / 60
            case .late(let seconds): seconds / 60
            case .upcoming, .notRecorded, .notMeasured: nil
            }
        }
    }

    /// Judges `stop` as of `now`.
    public static func verdict(_ stop: RecordedStop, now: Date) -> Verdict {
        guard let at = stop.actualAt else { return stop.planned > now ? .upcoming : .notRecorded }
        guard stop.isPromised else { return .notMeasured }
        let window = stop.promise.window
        let lateness = Lateness(at: at, windowEnd: window.end)
        if lateness.isLate { return .late(lateness.seconds) }
        if stop.kind == .pickup && at < window.start { return .early(window.start.timeIntervalSince(at)) }
        return .onTime
    }

    /// The rider's time aboard: the pickup's "on board" tap to the van's time at the drop-off.
    /// Nil for a pickup, or when either time is missing.
    public static func rideTime(_ stop: RecordedStop) -> TimeInterval? {
        guard stop.kind == .dropoff, let boarded = stop.boardedAt, let at = stop.actualAt else { return nil }
        return at.timeIntervalSince(boarded)
    }

    /// The wait at a pickup: "arrived" to "on board". Nil unless both were tapped.
    public static func wait(_ stop: RecordedStop) -> TimeInterval? {
        guard stop.kind == .pickup, stop.outcome == .boarded, let arrived = stop.arrivedAt, let boarded = stop.departedAt else { return nil }
        return boarded.timeIntervalSince(arrived)
    }

    /// The nearest-rank 95th percentile of `values`; nil when empty.
    public static func p95(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = (95 * sorted.count + 99) / 100  // ⌈0.95 n⌉ in whole numbers
        return sorted[rank - 1]
    }
}
