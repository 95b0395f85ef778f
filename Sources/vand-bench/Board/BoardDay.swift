import Foundation
import VanDomain
import VanPostgres
import VanServices

/// Readies a booked campus day for the board benchmark: exactly `rides` rides, approved; a
/// dispatcher with a web session; some vans on the road with their first stops tapped.
struct BoardDay {
    let pool: PGPool
    let day: LocalDate
    let timeZone: TimeZone
    let now: Date

    /// What the day holds once ready.
    struct Setup {
        /// Rides on the board.
        var rides: Int
        /// Stops tapped (arrived and done).
        var tapped: Int
        /// Rides whose pickup was tapped a no-show (their drop-off is no stop).
        var noShowDropoffs: Int
        /// The dispatcher's session token (the `vand_session` cookie).
        var sessionToken: String
        /// The session token of the first van's driver on shift (nil: no van on the road).
        var driverToken: String?
    }

    /// Cuts the day to `rides` (the last booked go), approves them, signs a dispatcher in and puts
    /// `vansOnRoad` vans on the road: a driver's open shift, a position now at its first stop, and
    /// the first third of its stops in route order tapped (arrived a minute after the planned
    /// time, done a minute later; every seventh pickup a no-show).
    func prepare(rides: Int, vansOnRoad: Int) async throws -> Setup {
        let interval = day.interval(in: timeZone)
        let token = SessionToken.generate()
        let now = self.now
        return try await pool.withTransaction { conn in
            try conn.execute(
                """
                DELETE FROM rides WHERE id IN (SELECT id FROM rides ORDER BY created_at DESC, id DESC
                                               OFFSET \(rides))
                """)
            try conn.execute("UPDATE rides SET status = 'approved', decided_by = 'vand-bench', decided_at = \(now) WHERE status = 'pending'")
            let count = try conn.query(
                """
                SELECT count(*) AS n FROM rides WHERE status = 'approved' AND pickup_at >= \(interval.start) AND pickup_at < \(interval.end)
                """
            ).first!.decode(Int.self, "n")
            try conn.execute(
                """
                INSERT INTO riders (net_id, name, password_hash, must_change_password, role)
                VALUES ('benchdee', 'Bench Dispatcher', 'x', false, 'dispatcher')
                """)
            try SessionStore(conn).insert(token, netID: try NetID("benchdee"), now: now, expiresAt: now.addingTimeInterval(86_400))
            let vans = try conn.query(
                """
                SELECT v.id FROM vans v WHERE EXISTS (SELECT 1 FROM rides r WHERE r.van_id = v.id) ORDER BY v.name LIMIT \(vansOnRoad)
                """
            ).map { try $0.decode(Int64.self, "id") }
            var tapped = 0, noShows = 0
            var driverToken: SessionToken?
            for (index, van) in vans.enumerated() {
                let driver = "benchdrv\(index + 1)"
                try conn.execute(
                    "INSERT INTO riders (net_id, name, password_hash, must_change_password, role) VALUES (\(driver), \("Driver \(index + 1)"), 'x', false, 'driver')"
                )
                if index == 0 {
                    let token = SessionToken.generate()
                    try SessionStore(conn).insert(token, netID: try NetID(driver), now: now, expiresAt: now.addingTimeInterval(86_400))
                    driverToken = token
                }
                let shift = try conn.query(
                    """
                    INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES (\(driver), \(van), \(interval.start)) RETURNING id
                    """
                ).first!.decode(Int64.self, "id")
                typealias Stop = (ride: UUID, kind: String, at: Date, lat: Double, lon: Double)
                var stops: [Stop] = []
                for row in try conn.query(
                    """
                    SELECT id, pickup_at, estimated_dropoff_at, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon FROM rides
                    WHERE van_id = \(van) AND status = 'approved' AND pickup_at >= \(interval.start) AND pickup_at < \(interval.end)
                    """)
                {
                    let id = try row.decode(UUID.self, "id")
                    stops.append(
                        (
                            id, "pickup", try row.decode(Date.self, "pickup_at"), try row.decode(Double.self, "pickup_lat"),
                            try row.decode(Double.self, "pickup_lon")
                        ))
                    stops.append(
                        (
                            id, "dropoff", try row.decode(Date.self, "estimated_dropoff_at"), try row.decode(Double.self, "dropoff_lat"),
                            try row.decode(Double.self, "dropoff_lon")
                        ))
                }
                stops.sort { a, b in a.at != b.at ? a.at < b.at : (a.kind == "dropoff" && b.kind == "pickup") }
                guard let first = stops.first else { continue }
                try conn.execute(
                    """
                    INSERT INTO van_positions (van_id, at, lat, lon, source) VALUES (\(van), \(now), \(first.lat), \(first.lon), 'tracker')
                    """)
                var missed = Set<UUID>()
                var pickups = 0
                for stop in stops.prefix(stops.count / 3) where !missed.contains(stop.ride) {
                    var outcome = stop.kind == "pickup" ? "boarded" : "dropped_off"
                    if stop.kind == "pickup" {
                        pickups += 1
                        if pickups % 7 == 0 {
                            outcome = "no_show"
                            missed.insert(stop.ride)
                            noShows += 1
                        }
                    }
                    try conn.execute(
                        """
                        INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at, lat, lon) VALUES
                          (\(UUID()), \(shift), \(stop.ride), \(stop.kind), 'arrived', \(stop.at.addingTimeInterval(60)), \(stop.lat), \(stop.lon)),
                          (\(UUID()), \(shift), \(stop.ride), \(stop.kind), \(outcome), \(stop.at.addingTimeInterval(120)), \(stop.lat), \(stop.lon))
                        """)
                    tapped += 1
                }
            }
            return Setup(rides: count, tapped: tapped, noShowDropoffs: noShows, sessionToken: token.rawValue, driverToken: driverToken?.rawValue)
        }
    }

    /// Copies the day's rides `copies - 1` more times onto the same vans, each copy 20 s later
    /// than the one before, one ride in twenty of the copies left pending: a day no van could
    /// drive (the route check and the event triggers are off for the copies), to bound what
    /// the staff pages read and send however big the day gets. Returns the rides on the day.
    func copy(_ copies: Int) async throws -> Int {
        guard copies > 1 else { return 0 }
        let interval = day.interval(in: timeZone)
        return try await pool.withTransaction { conn in
            try conn.execute("SET LOCAL session_replication_role = replica")
            try conn.execute(
                """
                INSERT INTO rides (id, net_id, kind, pickup_address, pickup_lat, pickup_lon, pickup_place_id,
                                   dropoff_address, dropoff_lat, dropoff_lon, dropoff_place_id, requested_at,
                                   pickup_at, estimated_dropoff_at, needs_wheelchair, companions, note, status, van_id,
                                   decided_by, decided_at, promise, window_start, window_end, max_ride_seconds)
                SELECT gen_random_uuid(), net_id, kind, pickup_address, pickup_lat, pickup_lon, pickup_place_id,
                       dropoff_address, dropoff_lat, dropoff_lon, dropoff_place_id, requested_at + k * interval '1 second',
                       pickup_at + k * interval '20 seconds', estimated_dropoff_at + k * interval '20 seconds',
                       needs_wheelchair, companions, note,
                       CASE WHEN (k + row_number() OVER ()) % 20 = 0 THEN 'pending' ELSE status END, van_id,
                       decided_by, decided_at, promise, window_start + k * interval '20 seconds',
                       window_end + k * interval '20 seconds', max_ride_seconds
                FROM rides, generate_series(1, \(copies - 1)) AS k
                WHERE status = 'approved' AND pickup_at >= \(interval.start) AND pickup_at < \(interval.end)
                """)
            return try conn.query(
                """
                SELECT count(*) AS n FROM rides WHERE pickup_at >= \(interval.start) AND pickup_at < \(interval.end)
                """
            ).first!.decode(Int.self, "n")
        }
    }

    /// Refreshes the planner's statistics, as autovacuum does after a day's rides have grown
    /// (a copied day, unanalyzed, is planned as one row: nested loops five times slower).
    static func analyze(_ pool: PGPool) async throws {
        try await pool.withConnection { conn in _ = try conn.execute("ANALYZE") }
    }

    /// Marks every van position as taken now (so they stay fresh for the renders).
    static func refreshPositions(_ pool: PGPool) async throws {
        try await pool.withConnection { conn in _ = try conn.execute("UPDATE van_positions SET at = \(Date())") }
    }
}
