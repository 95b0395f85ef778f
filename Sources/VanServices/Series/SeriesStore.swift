import Foundation
import VanDomain
import VanPostgres

/// The one place that knows `series` and `series_holds` (sql/0040).
enum SeriesStore {
    /// The columns of a series row, with its places' names, over `series s`.
    private static let select: SQLQuery = """
        SELECT s.id, s.net_id, array_to_string(s.weekdays, ',') AS weekdays_text, to_char(s.until, 'YYYY-MM-DD') AS until_text,
               s.pickup_address, s.pickup_lat, s.pickup_lon, s.pickup_place_id, pp.name AS pickup_place_name,
               s.dropoff_address, s.dropoff_lat, s.dropoff_lon, s.dropoff_place_id, dp.name AS dropoff_place_name,
               to_char(s.time_of_day, 'HH24:MI') AS time_text, s.promise, s.needs_wheelchair, s.companions, s.note, s.created_at
        FROM series s
        LEFT JOIN places pp ON pp.id = s.pickup_place_id
        LEFT JOIN places dp ON dp.id = s.dropoff_place_id
        """

    /// `netID`'s series `id`, written first from its rides when it was booked before series had a
    /// record (sql/0040); nil when she has no such series. `lock` takes the row for an update.
    static func load(_ id: UUID, netID: NetID, timeZone: TimeZone, lock: Bool = false, _ conn: PGConnection) throws -> StandingSeries? {
        let forUpdate: SQLQuery = lock ? "FOR UPDATE OF s" : ""
        if let row = try conn.query("\(select) WHERE s.id = \(id) AND s.net_id = \(netID.rawValue) \(forUpdate)").first {
            return try series(row)
        }
        let rides = try conn.query(
            "\(RideRecord.select) WHERE r.net_id = \(netID.rawValue) AND r.series_id = \(id) ORDER BY r.pickup_at, r.id",
            results: .binary, rows: RideRecord.ride)
        guard let derived = derive(id, from: rides, timeZone: timeZone) else { return nil }
        try insert(derived, conn)
        return try conn.query("\(select) WHERE s.id = \(id) \(forUpdate)").first.map(series)
    }

    /// The series `netID` has (with a record or only rides), newest first.
    static func ids(of netID: NetID, _ conn: PGConnection) throws -> [UUID] {
        try conn.query(
            """
            SELECT id FROM (
                SELECT id, created_at FROM series WHERE net_id = \(netID.rawValue)
                UNION
                SELECT series_id, min(created_at) FROM rides WHERE net_id = \(netID.rawValue) AND series_id IS NOT NULL
                  AND series_id NOT IN (SELECT id FROM series) GROUP BY series_id
            ) both_kinds ORDER BY created_at DESC, id
            """
        ).map { try $0.decode(UUID.self, "id") }
    }

    /// Whose series `id` is, if it exists (the console and vanadmin act for her).
    static func owner(of id: UUID, _ conn: PGConnection) throws -> NetID? {
        guard
            let row = try conn.query(
                """
                SELECT net_id FROM series WHERE id = \(id)
                UNION ALL SELECT net_id FROM rides WHERE series_id = \(id) LIMIT 1
                """
            ).first
        else { return nil }
        return try NetID(try row.decode(String.self, "net_id"))
    }

    /// A new series' record, built from its occurrences (nothing when it has one).
    static func record(_ rides: [NewRide], timeZone: TimeZone, now: Date, _ conn: PGConnection) throws {
        guard let first = rides.first, let id = first.seriesID else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: first.pickupAt)
        let days = rides.map { LocalDate(containing: $0.pickupAt, in: timeZone) }
        guard let until = days.max(), let time = try? LocalTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0) else { return }
        let template = SeriesTemplate(
            pickup: first.pickup, dropoff: first.dropoff, time: time, promise: first.promise, needsWheelchair: first.needsWheelchair,
            companions: first.companions, note: first.note)
        try insert(
            StandingSeries(id: id, netID: first.netID, weekdays: Set(days.map(\.weekday)), until: until, template: template, createdAt: now), conn)
    }

    /// The record of a series booked before sql/0040, from its rides: the pattern their dates make,
    /// and the template of the latest booked (an edit books anew, so the latest is the newest wish).
    static func derive(_ id: UUID, from rides: [Ride], timeZone: TimeZone) -> StandingSeries? {
        guard let latest = rides.max(by: { $0.createdAt < $1.createdAt }), let first = rides.first else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: latest.promise.asked)
        guard let time = try? LocalTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0) else { return nil }
        let days = rides.map { LocalDate(containing: $0.promise.asked, in: timeZone) }
        guard let until = days.max() else { return nil }
        let template = SeriesTemplate(
            pickup: latest.pickup, dropoff: latest.dropoff, time: time, promise: latest.promise.kind, needsWheelchair: latest.needsWheelchair,
            companions: latest.companions, note: latest.note)
        return StandingSeries(
            id: id, netID: first.netID, weekdays: Set(days.map(\.weekday)), until: until, template: template,
            createdAt: rides.map(\.createdAt).min() ?? first.createdAt)
    }

    /// Writes a series' record unless it has one.
    static func insert(_ series: StandingSeries, _ conn: PGConnection) throws {
        let t = series.template
        let weekdays = "{" + series.weekdays.sorted().map(String.init).joined(separator: ",") + "}"
        try conn.execute(
            """
            INSERT INTO series (id, net_id, weekdays, until,
                pickup_address, pickup_lat, pickup_lon, pickup_place_id,
                dropoff_address, dropoff_lat, dropoff_lon, dropoff_place_id,
                time_of_day, promise, needs_wheelchair, companions, note, created_at, updated_at)
            VALUES (\(series.id), \(series.netID.rawValue), \(weekdays)::smallint[], \(series.until.description)::date,
                \(t.pickup.address), \(t.pickup.coordinate?.latitude), \(t.pickup.coordinate?.longitude), \(t.pickup.placeID),
                \(t.dropoff.address), \(t.dropoff.coordinate?.latitude), \(t.dropoff.coordinate?.longitude), \(t.dropoff.placeID),
                \(t.time.description)::time, \(t.promise.rawValue), \(t.needsWheelchair), \(t.companions), \(t.note),
                \(series.createdAt), \(series.createdAt))
            ON CONFLICT (id) DO NOTHING
            """)
    }

    /// Writes a new template (an edit from a date on).
    static func update(_ id: UUID, template t: SeriesTemplate, now: Date, _ conn: PGConnection) throws {
        try conn.execute(
            """
            UPDATE series SET
                pickup_address = \(t.pickup.address), pickup_lat = \(t.pickup.coordinate?.latitude),
                pickup_lon = \(t.pickup.coordinate?.longitude), pickup_place_id = \(t.pickup.placeID),
                dropoff_address = \(t.dropoff.address), dropoff_lat = \(t.dropoff.coordinate?.latitude),
                dropoff_lon = \(t.dropoff.coordinate?.longitude), dropoff_place_id = \(t.dropoff.placeID),
                time_of_day = \(t.time.description)::time, promise = \(t.promise.rawValue), updated_at = \(now)
            WHERE id = \(id)
            """)
    }

    /// The series' holds, earliest first.
    static func holds(_ id: UUID, _ conn: PGConnection) throws -> [SeriesHold] {
        try conn.query(
            """
            SELECT id, to_char(from_day, 'YYYY-MM-DD') AS from_text, to_char(to_day, 'YYYY-MM-DD') AS to_text,
                   created_at, created_by, resumed_at
            FROM series_holds WHERE series_id = \(id) ORDER BY from_day, id
            """
        ).map { row in
            SeriesHold(
                id: try row.decode(Int64.self, "id"), from: try LocalDate(try row.decode(String.self, "from_text")),
                to: try LocalDate(try row.decode(String.self, "to_text")), createdAt: try row.decode(Date.self, "created_at"),
                createdBy: try row.decode(String.self, "created_by"), resumedAt: try row.decode(Date?.self, "resumed_at"))
        }
    }

    /// Records a hold and answers it.
    static func addHold(_ id: UUID, from: LocalDate, to: LocalDate, by actor: String, now: Date, _ conn: PGConnection) throws -> SeriesHold {
        let hold = try conn.query(
            """
            INSERT INTO series_holds (series_id, from_day, to_day, created_at, created_by)
            VALUES (\(id), \(from.description)::date, \(to.description)::date, \(now), \(actor)) RETURNING id
            """
        ).first!.decode(Int64.self, "id")
        return SeriesHold(id: hold, from: from, to: to, createdAt: now, createdBy: actor)
    }

    /// Marks a hold resumed.
    static func resume(_ hold: Int64, by actor: String, now: Date, _ conn: PGConnection) throws {
        try conn.execute("UPDATE series_holds SET resumed_at = \(now), resumed_by = \(actor) WHERE id = \(hold)")
    }

    /// The series' rides (any status), soonest first.
    static func rides(_ id: UUID, _ conn: PGConnection) throws -> [Ride] {
        try conn.query("\(RideRecord.select) WHERE r.series_id = \(id) ORDER BY r.pickup_at, r.id", results: .binary, rows: RideRecord.ride)
    }

    /// The series' rides a change may replace: holding a van, picked up after `now`, and not yet
    /// boarded or marked by the driver (as ``RiderRides/cancelSeries(_:for:now:lateWithin:)`` spares them); locked.
    static func changeable(_ id: UUID, now: Date, _ conn: PGConnection) throws -> [Ride] {
        let ids = try conn.query(
            """
            SELECT id FROM rides
            WHERE series_id = \(id) AND ride_holds_van(status) AND pickup_at > \(now)
              AND NOT EXISTS (SELECT 1 FROM stop_taps t WHERE t.ride_id = rides.id AND t.undone_at IS NULL AND \(RiderRides.pickedUp))
            ORDER BY pickup_at FOR UPDATE
            """
        ).map { try $0.decode(UUID.self, "id") }
        guard !ids.isEmpty else { return [] }
        let list = "{" + ids.map { $0.uuidString.lowercased() }.joined(separator: ",") + "}"
        return try conn.query(
            "\(RideRecord.select) WHERE r.id = ANY(\(list)::uuid[]) ORDER BY r.pickup_at, r.id", results: .binary, rows: RideRecord.ride)
    }

    /// Cancels `rides` as the rider's own (never late: a hold or an edit is not a missed trip), with `reason`.
    static func cancel(_ rides: [Ride], reason: String, now: Date, _ conn: PGConnection) throws {
        guard !rides.isEmpty else { return }
        let list = "{" + rides.map { $0.id.uuidString.lowercased() }.joined(separator: ",") + "}"
        try conn.execute(
            """
            UPDATE rides SET status = 'cancelled', cancelled_by = 'rider', cancelled_late = false, cancelled_at = \(now),
                             reason = \(reason), updated_at = \(now)
            WHERE id = ANY(\(list)::uuid[])
            """)
    }

    /// The closed days from `from` through `to`, with their reasons.
    static func closures(from: LocalDate, to: LocalDate, _ conn: PGConnection) throws -> [LocalDate: String?] {
        var closed: [LocalDate: String?] = [:]
        for closure in try ServiceCalendarStore.closures(conn, from: from) where closure.day <= to { closed[closure.day] = closure.reason }
        return closed
    }

    /// The newest ride event id: a change's events are those after it.
    static func lastEventID(_ conn: PGConnection) throws -> Int64 {
        try conn.query("SELECT coalesce(max(id), 0) AS last FROM ride_events").first!.decode(Int64.self, "last")
    }

    /// The rider hears of every ride a series change cancelled or booked: her inbox gets each of
    /// their events after `after` (a cancellation she asked for or a booking is not otherwise hers to hear).
    static func tellRider(_ rideIDs: [UUID], after: Int64, _ conn: PGConnection) throws {
        guard !rideIDs.isEmpty else { return }
        let list = "{" + rideIDs.map { $0.uuidString.lowercased() }.joined(separator: ",") + "}"
        try conn.execute(
            """
            INSERT INTO deliveries (event_id, sink)
            SELECT e.id, 'rider' FROM ride_events e
            WHERE e.id > \(after) AND e.ride_id = ANY(\(list)::uuid[]) AND e.kind IN ('created', 'cancelled_by_rider')
            ON CONFLICT DO NOTHING
            """)
    }

    /// A series from a row of ``select``.
    private static func series(_ row: some PGRowReading) throws -> StandingSeries {
        func endpoint(_ end: String) throws -> RideEndpoint { try RideRecord.endpoint(end, in: row) }
        guard let promise = RidePromise.Kind(rawValue: try row.decode(String.self, "promise")) else {
            throw PGError(kind: .decoding, message: "series has an unknown promise")
        }
        let weekdays = try row.decode(String.self, "weekdays_text").split(separator: ",").compactMap { Int($0) }
        let template = SeriesTemplate(
            pickup: try endpoint("pickup"), dropoff: try endpoint("dropoff"), time: try LocalTime(try row.decode(String.self, "time_text")),
            promise: promise, needsWheelchair: try row.decode(Bool.self, "needs_wheelchair"), companions: try row.decode(Int.self, "companions"),
            note: try row.decode(String?.self, "note"))
        return StandingSeries(
            id: try row.decode(UUID.self, "id"), netID: try NetID(try row.decode(String.self, "net_id")), weekdays: Set(weekdays),
            until: try LocalDate(try row.decode(String.self, "until_text")), template: template, createdAt: try row.decode(Date.self, "created_at"))
    }
}
