import Foundation
import VanPostgres
import VanServices

/// A day on the road written with plain SQL into the tables of sql/0028 (and `rides`), for the
/// dispatcher's on-time, status and watch tests: vans, a rider, two driver accounts, their
/// shifts, rides and the drivers' taps. Times are local to America/New_York on Monday
/// 2026-11-16 (UTC−5), given as hours and minutes.
struct RoadDay {
    let pool: PGPool

    /// Midnight of 2026-11-16 in New York.
    static let midnight = Date(timeIntervalSince1970: 1_794_805_200)

    /// `hour:minute` on the day.
    static func at(_ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
        midnight.addingTimeInterval(TimeInterval(hour * 3_600 + minute * 60 + second))
    }

    /// Van 1 (8 seats), Van 2 (8 seats), Van 3 (4 seats); the rider ann1 ("Ann Lee"); the
    /// drivers dee ("Dee Park") and eli.
    func fleet() async throws {
        try await pool.withConnection { conn in
            try conn.execute("INSERT INTO vans (name, seats, wheelchair_positions) VALUES ('Van 1', 8, 1), ('Van 2', 8, 1), ('Van 3', 4, 0)")
            try conn.execute("INSERT INTO riders (net_id, password_hash, name) VALUES ('ann1', 'x', 'Ann Lee')")
            try conn.execute(
                """
                INSERT INTO riders (net_id, password_hash, name, role) VALUES ('dee', 'x', 'Dee Park', 'driver'), ('eli', 'x', NULL, 'driver')
                """)
        }
    }

    /// A shift of `driver` on `van` from `start`, open unless `end` is given.
    func shift(_ driver: String, _ van: String, from start: Date, to end: Date? = nil) async throws {
        try await pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO shifts (driver_net_id, van_id, started_at, ended_at)
                VALUES (\(driver), (SELECT id FROM vans WHERE name = \(van)), \(start), \(end))
                """)
        }
    }

    /// A ride of ann1 on `van`; its promise's window, planned times and limit as given.
    @discardableResult
    func ride(
        _ van: String, promise: String = "pickup", window: (Date, Date), pickup: Date, dropoff: Date, maxRide: Int = 1_800,
        status: String, from: String = "SCL", to: String = "Library"
    ) async throws -> (id: UUID, ref: String) {
        let id = UUID()
        let ref = try await pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at,
                                   status, van_id, promise, window_start, window_end, max_ride_seconds)
                VALUES (\(id), 'ann1', 'scheduled', \(from), \(to), \(pickup.addingTimeInterval(-86_400)), \(pickup), \(dropoff),
                        \(status), (SELECT id FROM vans WHERE name = \(van)), \(promise), \(window.0), \(window.1), \(maxRide))
                """)
            return try conn.query("SELECT ref FROM rides WHERE id = \(id)").first!.decode(String.self, at: 0)
        }
        return (id, ref)
    }

    /// A tap by `driver`'s latest shift; `undone` marks it undone at that time.
    func tap(_ ride: UUID, _ stop: String, _ action: String, at: Date, by driver: String, undone: Date? = nil) async throws {
        try await pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at, undone_at)
                VALUES (gen_random_uuid(), (SELECT max(id) FROM shifts WHERE driver_net_id = \(driver)), \(ride), \(stop), \(action), \(at), \(undone))
                """)
        }
    }

    /// The van's latest position, taken at `at`.
    func position(_ van: String, at: Date) async throws {
        try await pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO van_positions (van_id, at, lat, lon, source)
                VALUES ((SELECT id FROM vans WHERE name = \(van)), \(at), 41.3, -72.9, 'driver')
                """)
        }
    }
}
