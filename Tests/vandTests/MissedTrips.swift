import Foundation
import VanPostgres

/// Missed trips written with plain SQL (a rider's past rides, the driver's taps at them), for
/// the tests of the no-show policy's routes and commands: each ride is picked up at `pickup`
/// with a 15-minute window, on Van 1, by the driver `dee` (added with a shift if missing).
struct MissedTrips {
    let pool: PGPool

    /// A no-show the taps prove (arrived a minute into the window, no-show after the wait), or,
    /// `vanLate`, one the van reached 20 minutes after the window ended (recorded by the office).
    @discardableResult
    func noShow(_ rider: String, at pickup: Date, vanLate: Bool = false) async throws -> String {
        try await pool.withTransaction { conn in
            try conn.execute("INSERT INTO riders (net_id, password_hash, role) VALUES ('dee', 'x', 'driver') ON CONFLICT DO NOTHING")
            try conn.execute(
                """
                INSERT INTO shifts (driver_net_id, van_id, started_at)
                SELECT 'dee', (SELECT id FROM vans WHERE name = 'Van 1'), \(pickup.addingTimeInterval(-3_600))
                WHERE NOT EXISTS (SELECT 1 FROM shifts WHERE driver_net_id = 'dee')
                """)
            let id = UUID()
            try conn.execute(
                """
                INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at,
                                   status, van_id, promise, window_start, window_end, max_ride_seconds)
                VALUES (\(id), \(rider), 'scheduled', 'SCL', 'Davenport', \(pickup.addingTimeInterval(-86_400)), \(pickup),
                        \(pickup.addingTimeInterval(900)), 'no_show', (SELECT id FROM vans WHERE name = 'Van 1'), 'pickup',
                        \(pickup), \(pickup.addingTimeInterval(900)), 1800)
                """)
            let arrived = vanLate ? pickup.addingTimeInterval(35 * 60) : pickup.addingTimeInterval(60)
            try conn.execute(
                """
                INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
                VALUES (gen_random_uuid(), (SELECT max(id) FROM shifts WHERE driver_net_id = 'dee'), \(id), 'pickup', 'arrived', \(arrived))
                """)
            if !vanLate {
                try conn.execute(
                    """
                    INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
                    VALUES (gen_random_uuid(), (SELECT max(id) FROM shifts WHERE driver_net_id = 'dee'), \(id), 'pickup', 'no_show',
                            \(pickup.addingTimeInterval(7 * 60)))
                    """)
            }
            return try conn.query("SELECT ref FROM rides WHERE id = \(id)").first!.decode(String.self, "ref")
        }
    }
}
