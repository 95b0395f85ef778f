import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// The road's speed learned from the drivers' taps (sql/0043): how much longer than the travel
/// model the vans' drives really take, as a factor on the model's driving times, by local hour.
///
/// Only legs that end at a drop-off are learned from: the van left the stop before (the
/// *boarded*, *no-show* or *dropped off* tap) with a rider aboard, so it drove straight there,
/// and a driver taps *arrived* at a drop-off as she pulls up. A leg to a pickup may end in a wait
/// for the window, tapped when it opens. What keeps the factor from drifting:
/// - a leg shorter than a minute in the model is not learned from (two stops at one door);
/// - a leg more than 3 × or less than a third of the model is left out (a van stuck at a stop,
///   a forgotten tap, a tap made from the wrong place);
/// - each factor is a running mean whose weight is capped at ``weightCap`` legs, so a day of snow
///   moves it within a few dozen legs, and a fine day after moves it back as fast;
/// - with fewer than ``overallMinimum`` legs in all the model stands (factor 1); an hour's own
///   factor counts from ``hourMinimum`` legs, and only when it differs from every hour's by more
///   than three of its standard errors (with every hour's spread: an hour's few legs say little
///   of their own), weighed against every hour's as ``shrinkage`` legs;
/// - a factor is used only when it is further from 1 than ``deadBand`` and than three standard
///   errors of its mean (the legs' own spread, kept as a running mean of their squares): early in
///   a day a few dozen legs are that noisy, and a route planned tight at the model's speed must
///   not read as broken at 6 % slower (on a busy day, factors learned from noise alone, crossing
///   a fixed 5 % band for a while, cost 7 to 28 bookings of 450);
/// - the factor stays within 0.5–2.5 (the table's check).
public enum RoadSpeeds {
    /// The most legs a factor weighs its past by: new legs always move it.
    static let weightCap = 100
    /// Legs an hour needs before its own factor counts.
    static let hourMinimum = 50
    /// Legs every hour together needs before any factor is used.
    static let overallMinimum = 50
    /// How many legs every hour's factor weighs against an hour's own (which weighs at most ``weightCap``).
    static let shrinkage = 100.0
    /// A factor this close to 1 leaves the model as it is.
    static let deadBand = 0.05
    /// The range of a leg's ratio to the model that is learned from.
    static let ratioRange: ClosedRange<Double> = (1.0 / 3)...3
    /// The shortest leg in the model that is learned from.
    static let shortestLeg: TimeInterval = 60

    /// How many standard errors from 1 a factor must be to be used.
    static let significance = 3.0

    /// A learned factor and the legs behind it.
    public struct Factor: Hashable, Sendable {
        /// The running mean of the legs' ratios to the model.
        public var factor: Double
        /// Legs learned from.
        public var samples: Int
        /// The running mean of the ratios' squares, for their spread.
        public var squares: Double

        /// A factor; with no spread given, none (`squares` is `factor`²).
        public init(factor: Double, samples: Int, squares: Double? = nil) {
            self.factor = factor
            self.samples = samples
            self.squares = squares ?? factor * factor
        }

        /// The standard error of the mean: the ratios' spread over the legs it weighs (its own
        /// and the capped past's, as a running mean with weight capped at ``weightCap`` holds about twice that).
        var standardError: Double { standardError(spread: spread) }

        /// The legs' spread around the mean (their standard deviation).
        var spread: Double { max(0, squares - factor * factor).squareRoot() }

        /// The standard error of the mean for legs spread by `spread`.
        func standardError(spread: Double) -> Double {
            guard samples > 0 else { return .infinity }
            return spread / Double(min(samples, 2 * weightCap)).squareRoot()
        }
    }

    /// A `road_speeds` row as ``column`` returns it.
    private struct Stored: Codable, Sendable {
        let hour: Int
        let factor: Double
        let samples: Int
        let squares: Double
    }

    /// Every factor as one JSON value, for a query's select list (read with ``table(_:_:)``), so
    /// the reads that need the road's speed take it in the statement they make anyway; none when
    /// the office drives on the model as set (``SchedulerSettings/learnRoadSpeed`` false).
    static let column: SQLQuery = """
        (SELECT CASE WHEN coalesce((SELECT (value ->> 'learnRoadSpeed')::boolean FROM settings WHERE key = 'scheduler'), true)
                     THEN coalesce(json_agg(json_build_object('hour', hour, 'factor', factor, 'samples', samples, 'squares', squares)), '[]')
                     ELSE '[]' END
         FROM road_speeds)
        """

    /// The factors in `row`'s `name` column, as ``column`` selects them.
    static func table(_ row: some PGRowReading, _ name: String) throws -> Table {
        var table: Table = [:]
        for stored in try row.decode(PGJSON<[Stored]>.self, name).value {
            table[stored.hour] = Factor(factor: stored.factor, samples: stored.samples, squares: stored.squares)
        }
        return table
    }

    /// The travel model in force at `date`, from a row with the model as set in `estimator`
    /// (the `settings` JSON, nil: the defaults) and ``column`` in `speeds`: what the ETAs and the
    /// driver's *Leave at* drive at, as the planner does (``ServiceCalendarStore``).
    static func estimator(
        _ row: some PGRowReading, estimator: String, speeds: String, at date: Date, timeZone: TimeZone
    ) throws -> TripEstimator {
        let model = try row.decode(PGJSON<TripEstimator>?.self, estimator)?.value ?? TripEstimator()
        return model.learned(factor(try table(row, speeds), at: date, timeZone: timeZone))
    }

    /// The factors by hour (-1: every hour), as stored.
    public typealias Table = [Int: Factor]

    /// The factor for a drive at `date`: every hour's, once it has ``overallMinimum`` legs, drawn
    /// toward its hour's own when that has ``hourMinimum`` legs and differs from every hour's by
    /// more than ``significance`` of its standard errors; 1 within ``deadBand`` of it, or within
    /// ``significance`` standard errors of every hour's mean.
    public static func factor(_ table: Table, at date: Date, timeZone: TimeZone) -> Double {
        guard let all = table[-1], all.samples >= overallMinimum else { return 1 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var factor = all.factor
        if let own = table[calendar.component(.hour, from: date)], own.samples >= hourMinimum,
            abs(own.factor - all.factor) > significance * own.standardError(spread: all.spread)
        {
            let weight = Double(min(own.samples, weightCap))
            factor = (weight * own.factor + shrinkage * all.factor) / (weight + shrinkage)
        }
        return abs(factor - 1) < max(deadBand, significance * all.standardError) ? 1 : factor
    }

    /// `factor` moved by `ratios` (each a leg's real time over the model's): the running mean,
    /// its past weighing at most ``weightCap`` legs. Ratios outside ``ratioRange`` are left out.
    static func updated(_ factor: Factor, with ratios: [Double]) -> Factor {
        let kept = ratios.filter { ratioRange.contains($0) }
        guard !kept.isEmpty else { return factor }
        let weight = Double(min(factor.samples, weightCap)), total = weight + Double(kept.count)
        let mean = (factor.factor * weight + kept.reduce(0, +)) / total
        let squares = (factor.squares * weight + kept.reduce(0) { $0 + $1 * $1 }) / total
        return Factor(factor: min(2.5, max(0.5, mean)), samples: factor.samples + kept.count, squares: squares)
    }

    /// What the table says, in a line: every hour's factor, then the hours with their own.
    public static func summary(_ table: Table) -> String {
        guard let all = table[-1], all.samples > 0 else { return "not learned yet: drives take the model's times" }
        let hours = table.keys.filter { $0 >= 0 && table[$0]!.samples >= hourMinimum }.sorted()
            .map { String(format: "%02d:00 %.2f ×", $0, table[$0]!.factor) }
        let used = all.samples >= overallMinimum ? "" : " (too few legs to use yet)"
        return String(format: "drives take %.2f × the model's times (%d legs)", all.factor, all.samples) + used
            + (hours.isEmpty ? "" : "; by hour: " + hours.joined(separator: ", "))
    }

    /// The stored factors.
    public static func table(_ conn: PGConnection) throws -> Table {
        var table: Table = [:]
        for (hour, factor) in try conn.query(
            "SELECT hour::int AS hour, factor, samples, squares FROM road_speeds" as SQLQuery,
            rows: { row in
                (
                    try row.decode(Int.self, "hour"),
                    Factor(
                        factor: try row.decode(Double.self, "factor"), samples: try row.decode(Int.self, "samples"),
                        squares: try row.decode(Double.self, "squares"))
                )
            })
        {
            table[hour] = factor
        }
        return table
    }

    /// One drive a van made to a drop-off: where from and when it left, where to and when it arrived.
    struct Leg: Hashable {
        let from: Coordinate
        let to: Coordinate
        let left: Date
        let arrived: Date
    }

    /// Learns from the legs ending at a drop-off tapped since the last time, up to `now`, against
    /// the travel model as set (not as learned). Runs in its own transaction under the every-hour
    /// row's lock, so two planners learn each leg once. The legs learned from.
    @discardableResult
    public static func learn(_ pool: PGPool, now: Date, timeZone: TimeZone) async throws -> Int {
        try await pool.withTransaction { conn in try learn(conn, now: now, timeZone: timeZone) }
    }

    static func learn(_ conn: PGConnection, now: Date, timeZone: TimeZone) throws -> Int {
        try conn.execute(
            """
            INSERT INTO road_speeds (hour, factor, samples, squares, learned_through, updated_at)
            VALUES (-1, 1, 0, 1, \(now.addingTimeInterval(-86_400)), \(now)) ON CONFLICT (hour) DO NOTHING
            """)
        guard
            let since = try conn.query("SELECT learned_through FROM road_speeds WHERE hour = -1 FOR UPDATE" as SQLQuery).first?
                .decode(Date.self, "learned_through"), since < now
        else { return 0 }
        let settings = try ServiceCalendarStore.settings(conn)
        guard settings.learnRoadSpeed else { return 0 }
        let legs = try self.legs(conn, since: since, through: now)
        let estimator = settings.estimator
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var ratios: [Int: [Double]] = [:]
        for leg in legs {
            let model = estimator.deadhead(from: leg.from, to: leg.to)
            guard model >= shortestLeg else { continue }
            let ratio = leg.arrived.timeIntervalSince(leg.left) / model
            ratios[calendar.component(.hour, from: leg.left), default: []].append(ratio)
            ratios[-1, default: []].append(ratio)
        }
        var table = try self.table(conn)
        for (hour, batch) in ratios {
            table[hour] = updated(table[hour] ?? Factor(factor: 1, samples: 0), with: batch)
        }
        for (hour, factor) in table where ratios[hour] != nil || hour == -1 {
            try conn.execute(
                """
                INSERT INTO road_speeds (hour, factor, samples, squares, learned_through, updated_at)
                VALUES (\(hour)::smallint, \(factor.factor), \(factor.samples), \(factor.squares), \(now), \(now))
                ON CONFLICT (hour) DO UPDATE SET factor = EXCLUDED.factor, samples = EXCLUDED.samples, squares = EXCLUDED.squares,
                    learned_through = EXCLUDED.learned_through, updated_at = EXCLUDED.updated_at
                """)
        }
        return ratios[-1]?.count ?? 0
    }

    /// The legs to a drop-off arrived in `(since, through]`: each van's stops in the order its
    /// shift reached them (taps from three hours before `since`, for the stop before the first).
    static func legs(_ conn: PGConnection, since: Date, through: Date) throws -> [Leg] {
        try conn.query(
            """
            WITH stops AS (
                SELECT t.shift_id, t.ride_id, t.stop,
                       max(t.at) FILTER (WHERE t.action = 'arrived') AS arrived_at,
                       max(t.at) FILTER (WHERE t.action <> 'arrived') AS departed_at
                FROM stop_taps t
                WHERE t.undone_at IS NULL AND t.at > \(since.addingTimeInterval(-3 * 3_600)) AND t.at <= \(through)
                GROUP BY t.shift_id, t.ride_id, t.stop
            ), placed AS (
                SELECT s.shift_id, s.stop, s.arrived_at, s.departed_at,
                       CASE WHEN s.stop = 'pickup' THEN r.pickup_lat ELSE r.dropoff_lat END AS lat,
                       CASE WHEN s.stop = 'pickup' THEN r.pickup_lon ELSE r.dropoff_lon END AS lon
                FROM stops s JOIN rides r ON r.id = s.ride_id
                WHERE s.arrived_at IS NOT NULL
            ), legs AS (
                SELECT stop, arrived_at, lat, lon,
                       lag(departed_at) OVER w AS left_at, lag(lat) OVER w AS from_lat, lag(lon) OVER w AS from_lon
                FROM placed WINDOW w AS (PARTITION BY shift_id ORDER BY arrived_at, stop)
            )
            SELECT left_at, from_lat, from_lon, arrived_at, lat, lon FROM legs
            WHERE stop = 'dropoff' AND arrived_at > \(since) AND left_at IS NOT NULL AND left_at <= arrived_at
              AND from_lat IS NOT NULL AND lat IS NOT NULL
            """ as SQLQuery,
            rows: { row in
                Leg(
                    from: try Coordinate(latitude: try row.decode(Double.self, "from_lat"), longitude: try row.decode(Double.self, "from_lon")),
                    to: try Coordinate(latitude: try row.decode(Double.self, "lat"), longitude: try row.decode(Double.self, "lon")),
                    left: try row.decode(Date.self, "left_at"), arrived: try row.decode(Date.self, "arrived_at"))
            })
    }
}

extension TripEstimator {
    /// The model with its driving `factor` × as long (the road as learned, ``RoadSpeeds``).
    public func learned(_ factor: Double) -> TripEstimator {
        guard factor != 1, factor > 0 else { return self }
        var estimator = self
        estimator.averageSpeedKmh /= factor
        return estimator
    }
}
