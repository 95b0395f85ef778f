import Foundation

/// The on-time figures of a set of stops (a period, a day, a van or a driver), by the rules of
/// ``OnTime``. Shares are of the stops recorded; stops not recorded are counted beside them,
/// never as on time.
public struct OnTimeFigures: Sendable, Hashable, Codable {
    /// How many values, their mean and their nearest-rank 95th percentile (nil when none).
    public struct Spread: Sendable, Hashable, Codable {
        /// How many values.
        public var count: Int
        /// Their mean.
        public var mean: Double?
        /// Their nearest-rank 95th percentile.
        public var p95: Double?

        /// The spread of `values`.
        public init(_ values: [Double]) {
            count = values.count
            mean = values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
            p95 = OnTime.p95(values)
        }
    }

    /// Pickups of rides promised a pickup window whose van's arrival was recorded (no-shows included).
    public var pickupsRecorded = 0
    /// Of those, inside the window.
    public var pickupsOnTime = 0
    /// Early pickups, in minutes before the window's start.
    public var pickupsEarly = Spread([])
    /// Late pickups, in minutes after the window's end.
    public var pickupsLate = Spread([])
    /// Promised pickups whose planned time passed with no tap.
    public var pickupsNotRecorded = 0
    /// Drop-offs of arrive-by rides whose arrival was recorded.
    public var arriveByRecorded = 0
    /// Of those, at or before the window's end.
    public var arriveByOnTime = 0
    /// Late arrive-by drop-offs, in minutes after the window's end.
    public var arriveByLate = Spread([])
    /// Arrive-by drop-offs whose planned time passed with no tap.
    public var arriveByNotRecorded = 0
    /// Rides whose time aboard was recorded (on board to the drop-off).
    public var rideTimesRecorded = 0
    /// Of those, within the ride's limit.
    public var rideTimesWithinLimit = 0
    /// Rides over their limit, in minutes over it.
    public var rideTimesOverLimit = Spread([])
    /// Time aboard ÷ the direct ride, over every recorded ride.
    public var rideTimeOverDirect = Spread([])
    /// Waits at pickups ("arrived" to "on board"), in minutes.
    public var waits = Spread([])
    /// Pickups tapped "no-show".
    public var noShows = 0
    /// Every stop (promised or not) whose planned time passed with no tap.
    public var stopsNotRecorded = 0
    /// Stops still ahead of their planned time, with no tap.
    public var stopsUpcoming = 0

    /// Share of recorded promised pickups inside their window (0…1); nil with none recorded.
    public private(set) var pickupOnTimeShare: Double?
    /// Share of recorded arrive-by drop-offs on time (0…1); nil with none recorded.
    public private(set) var arriveByOnTimeShare: Double?
    /// Share of recorded ride times within their limit (0…1); nil with none recorded.
    public private(set) var rideTimeWithinLimitShare: Double?

    /// No stops.
    public init() {}

    /// The figures of `stops` as of `now`.
    public init(_ stops: [RecordedStop], now: Date) {
        var early: [Double] = [], late: [Double] = [], arriveLate: [Double] = []
        var over: [Double] = [], ratios: [Double] = [], waits: [Double] = []
        for stop in stops {
            let verdict = OnTime.verdict(stop, now: now)
            switch verdict {
            case .upcoming: stopsUpcoming += 1
            case .notRecorded:
                stopsNotRecorded += 1
                if stop.isPromised {
                    if stop.kind == .pickup { pickupsNotRecorded += 1 } else { arriveByNotRecorded += 1 }
                }
            case .notMeasured: break
            case .onTime, .early, .late:
                let minutes = verdict.minutesLate ?? 0
                if stop.kind == .pickup {
                    pickupsRecorded += 1
                    if case .onTime = verdict { pickupsOnTime += 1 }
                    if minutes < 0 { early.append(-minutes) }
                    if minutes > 0 { late.append(minutes) }
                } else {
                    arriveByRecorded += 1
                    if case .onTime = verdict { arriveByOnTime += 1 }
                    if minutes > 0 { arriveLate.append(minutes) }
                }
            }
            if stop.kind == .pickup && stop.outcome == .noShow { noShows += 1 }
            if let wait = OnTime.wait(stop) { waits.append(wait / 60) }
            if let aboard = OnTime.rideTime(stop) {
                rideTimesRecorded += 1
                if aboard <= stop.maxRideTime { rideTimesWithinLimit += 1 } else { over.append((aboard - stop.maxRideTime) / 60) }
                if stop.directRide > 0 { ratios.append(aboard / stop.directRide) }
            }
        }
        pickupsEarly = Spread(early)
        pickupsLate = Spread(late)
        arriveByLate = Spread(arriveLate)
        rideTimesOverLimit = Spread(over)
        rideTimeOverDirect = Spread(ratios)
        self.waits = Spread(waits)
        func share(_ part: Int, _ whole: Int) -> Double? { whole == 0 ? nil : Double(part) / Double(whole) }
        pickupOnTimeShare = share(pickupsOnTime, pickupsRecorded)
        arriveByOnTimeShare = share(arriveByOnTime, arriveByRecorded)
        rideTimeWithinLimitShare = share(rideTimesWithinLimit, rideTimesRecorded)
    }
}
