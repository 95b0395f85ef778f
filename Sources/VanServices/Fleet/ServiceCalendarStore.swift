import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// The one place that knows `service_hours`, `closures` and the scheduler `settings`,
/// and that turns them into a ``Scheduler``.
public struct ServiceCalendarStore: Sendable {
    let pool: PGPool
    /// The service time zone (from configuration).
    public let timeZone: TimeZone

    /// A store over `pool` for a service in `timeZone`.
    public init(pool: PGPool, timeZone: TimeZone) {
        self.pool = pool
        self.timeZone = timeZone
    }

    /// The weekly windows.
    public func hours() async throws -> ServiceHours {
        let zone = timeZone
        return try await pool.withConnection { try Self.hours($0, timeZone: zone) }
    }

    /// Replaces every weekly window at once.
    public func setHours(_ windows: [ServiceWindow], actor: String) async throws {
        try await pool.withTransaction { conn in
            try conn.execute("DELETE FROM service_hours")
            for window in windows {
                try conn.execute(
                    """
                    INSERT INTO service_hours (weekday, start_time, end_time)
                    VALUES (\(window.weekday), \(window.start.description)::time, \(window.end.description)::time)
                    ON CONFLICT DO NOTHING
                    """)
            }
            try AuditLog.record(
                conn, actor: actor, action: "hours.set", subject: nil,
                details: [
                    "windows": windows.map { "\($0.weekday) \($0.start)-\($0.end)" }.joined(separator: ", ")
                ])
        }
    }

    /// A closed day and why.
    public struct Closure: Sendable, Equatable, Codable {
        /// The local date with no service.
        public let day: LocalDate
        /// Why (shown to riders), if given.
        public let reason: String?
    }

    /// Closes a whole local day; closing a closed day updates its reason.
    public func addClosure(_ day: LocalDate, reason: String?, actor: String) async throws {
        try await pool.withTransaction { conn in
            try conn.execute(
                """
                INSERT INTO closures (day, reason, added_by) VALUES (\(day.description)::date, \(reason), \(actor))
                ON CONFLICT (day) DO UPDATE SET reason = EXCLUDED.reason
                """)
            try AuditLog.record(conn, actor: actor, action: "closure.add", subject: day.description, details: ["reason": reason ?? ""])
        }
    }

    /// Reopens a closed day; false when it was not closed.
    @discardableResult
    public func removeClosure(_ day: LocalDate, actor: String) async throws -> Bool {
        try await pool.withTransaction { conn in
            let removed = try conn.execute("DELETE FROM closures WHERE day = \(day.description)::date") > 0
            if removed { try AuditLog.record(conn, actor: actor, action: "closure.remove", subject: day.description) }
            return removed
        }
    }

    /// Closures from `from` on (all when nil), by date.
    public func closures(from: LocalDate? = nil) async throws -> [Closure] {
        try await pool.withConnection { conn in try Self.closures(conn, from: from) }
    }

    /// The road's speed as learned from the taps, by hour (``RoadSpeeds``).
    public func roadSpeeds() async throws -> RoadSpeeds.Table {
        try await pool.withConnection { try RoadSpeeds.table($0) }
    }

    /// The scheduler figures; defaults when never set.
    public func settings() async throws -> SchedulerSettings {
        try await pool.withConnection { try Self.settings($0) }
    }

    /// Stores new scheduler figures.
    public func setSettings(_ settings: SchedulerSettings, actor: String) async throws {
        try settings.estimator.validate()
        try await pool.withTransaction { conn in
            try conn.execute(
                """
                INSERT INTO settings (key, value, updated_by) VALUES ('scheduler', \(PGJSON(settings)), \(actor))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()
                """)
            try AuditLog.record(conn, actor: actor, action: "scheduler.set", subject: nil)
        }
    }

    /// A scheduler built from the stored hours, closures near `around` and settings.
    public func scheduler(around date: Date) async throws -> Scheduler {
        let zone = timeZone
        return try await pool.withConnection { try Self.scheduler($0, timeZone: zone, around: date) }
    }

    /// The settings, the closures from two days before `date` to three after, and the weekly
    /// hours — in one statement (one round trip on the booking path instead of three).
    static func scheduler(_ conn: PGConnection, timeZone: TimeZone, around date: Date, roadAt: Date? = nil) throws -> Scheduler {
        try calendar(conn, timeZone: timeZone, around: date, roadAt: roadAt).scheduler
    }

    /// ``scheduler(_:timeZone:around:roadAt:)`` and the settings it was made from (for the figures
    /// that are not the engine's, such as the room held for will-calls), in the same one statement.
    /// The scheduler's travel model drives at the road's speed as learned for the hour of `roadAt`
    /// (default `date`; ``RoadSpeeds``); the settings' estimator is the model as set.
    static func calendar(
        _ conn: PGConnection, timeZone: TimeZone, around date: Date, roadAt: Date? = nil
    ) throws -> (scheduler: Scheduler, settings: SchedulerSettings) {
        let day = LocalDate(containing: date.addingTimeInterval(-2 * 86_400), in: timeZone)
        // Every booking reads it: prepared once per connection.
        guard
            let row = try conn.query(
                ("""
                SELECT (SELECT value FROM settings WHERE key = 'scheduler') AS settings,
                       (SELECT coalesce(json_agg(to_char(day, 'YYYY-MM-DD')), '[]')
                        FROM closures WHERE day BETWEEN \(day.description)::date AND \(day.description)::date + 5) AS closures,
                       (SELECT coalesce(json_agg(json_build_object('weekday', weekday, 'start', to_char(start_time, 'HH24:MI'),
                                                                   'end', to_char(end_time, 'HH24:MI')) ORDER BY weekday, start_time), '[]')
                        FROM service_hours) AS hours,
                       \(RoadSpeeds.column) AS speeds
                """ as SQLQuery).prepared()
            ).first
        else { throw PGError(kind: .decoding, message: "the calendar query returned no row") }
        let settings = try row.decode(PGJSON<SchedulerSettings>?.self, "settings")?.value ?? SchedulerSettings()
        let closures = try row.decode(PGJSON<[String]>.self, "closures").value.map { try LocalDate($0) }
        let windows = try row.decode(PGJSON<[StoredWindow]>.self, "hours").value.map {
            try ServiceWindow(weekday: $0.weekday, start: $0.start, end: $0.end)
        }
        let speeds = try RoadSpeeds.table(row, "speeds")
        let scheduler = Scheduler(
            estimator: settings.estimator.learned(RoadSpeeds.factor(speeds, at: roadAt ?? date, timeZone: timeZone)),
            hours: ServiceHours(timeZone: timeZone, windows: windows),
            closures: Set(closures),
            searchWindow: TimeInterval(settings.searchWindowMinutes * 60),
            step: TimeInterval(settings.stepMinutes * 60),
            windowWidth: TimeInterval(settings.windowMinutes * 60),
            rideTimeLimit: RideTimeLimit(factor: settings.maxRideFactor, extra: TimeInterval(settings.maxRideExtraMinutes * 60)),
            unhurriedMargin: settings.unhurriedMarginMinutes.map { TimeInterval($0 * 60) }
        )
        return (scheduler, settings)
    }

    /// A `service_hours` row as the calendar query returns it.
    private struct StoredWindow: Codable, Sendable {
        let weekday: Int
        let start: String
        let end: String
    }

    static func hours(_ conn: PGConnection, timeZone: TimeZone) throws -> ServiceHours {
        let windows = try conn.query(
            """
            SELECT weekday, to_char(start_time, 'HH24:MI') AS start_text, to_char(end_time, 'HH24:MI') AS end_text FROM service_hours ORDER BY weekday, start_time
            """
        ).map { row in
            try ServiceWindow(
                weekday: row.decode(Int.self, "weekday"), start: row.decode(String.self, "start_text"), end: row.decode(String.self, "end_text"))
        }
        return ServiceHours(timeZone: timeZone, windows: windows)
    }

    static func closures(_ conn: PGConnection, from: LocalDate?) throws -> [Closure] {
        try conn.query(
            """
            SELECT to_char(day, 'YYYY-MM-DD') AS day_text, reason FROM closures
            WHERE \(from?.description)::date IS NULL OR day >= \(from?.description)::date ORDER BY day
            """
        ).map { Closure(day: try LocalDate(try $0.decode(String.self, "day_text")), reason: try $0.decode(String?.self, "reason")) }
    }

    static func settings(_ conn: PGConnection) throws -> SchedulerSettings {
        guard let row = try conn.query("SELECT value FROM settings WHERE key = 'scheduler'").first else { return SchedulerSettings() }
        return try row.decode(PGJSON<SchedulerSettings>.self, "value").value
    }
}

/// The scheduler's tunable figures, stored in `settings` under `scheduler`.
public struct SchedulerSettings: Codable, Sendable, Equatable {
    /// Trip and deadhead estimate.
    public var estimator = TripEstimator()
    /// How far either side of a taken time to look for suggestions (default 60 minutes: the
    /// negotiation 49 CFR 37.131(b) allows; a ride booked further away is counted as a denial).
    public var searchWindowMinutes = 60
    /// The grid suggestions lie on (default 1 minute: the nearest feasible minute).
    public var stepMinutes = 1
    /// The width of a promised window (default 15 minutes): pickup in `[t, t + W]`, or arrival in `[t − W, t]`.
    public var windowMinutes = 15
    /// A ride may take the longer of `maxRideFactor` × the direct ride (default 2) …
    public var maxRideFactor = 2.0
    /// … and the direct ride plus `maxRideExtraMinutes` (default 15).
    public var maxRideExtraMinutes = 15
    /// Vans wait empty rather than with riders aboard, keeping this many minutes before each
    /// window's end (nil, the default: every stop as early as it can be). ``Scheduler/unhurriedMargin``.
    /// Off by default: docs/simulation.md gives what it costs in ETAs and arrive-by promises.
    public var unhurriedMarginMinutes: Int?
    /// Room is kept for each open will-call as a ride expected this many minutes after the ride
    /// there's planned drop-off, picked up within the office's wait (nil, the default: none kept;
    /// her call is served from the room there is). ``WillCallHolds``; docs/simulation.md measures it.
    public var willCallHoldMinutes: Int?
    /// Whether the road's speed is learned from the drivers' taps and driven at (true, the
    /// default: ``RoadSpeeds``), or every drive takes the model's time as set. docs/scheduling.md
    /// measures both on a road slower than the model.
    public var learnRoadSpeed = true

    /// Defaults.
    public init() {}

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        estimator = try c.decodeIfPresent(TripEstimator.self, forKey: .estimator) ?? TripEstimator()
        searchWindowMinutes = try c.decodeIfPresent(Int.self, forKey: .searchWindowMinutes) ?? 60
        stepMinutes = try c.decodeIfPresent(Int.self, forKey: .stepMinutes) ?? 1
        windowMinutes = try c.decodeIfPresent(Int.self, forKey: .windowMinutes) ?? 15
        maxRideFactor = try c.decodeIfPresent(Double.self, forKey: .maxRideFactor) ?? 2
        maxRideExtraMinutes = try c.decodeIfPresent(Int.self, forKey: .maxRideExtraMinutes) ?? 15
        unhurriedMarginMinutes = try c.decodeIfPresent(Int.self, forKey: .unhurriedMarginMinutes)
        willCallHoldMinutes = try c.decodeIfPresent(Int.self, forKey: .willCallHoldMinutes)
        learnRoadSpeed = try c.decodeIfPresent(Bool.self, forKey: .learnRoadSpeed) ?? true
    }
}
