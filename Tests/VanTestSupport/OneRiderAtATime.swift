import Foundation
import VanPostgres
import VanServices

extension Database {
    /// Every van carries one rider at a time and promises are exact instants (no window), with
    /// suggestions on a five-minute grid: a world where a time is easily taken, for the tests of
    /// the refusal paths (409s, series conflicts, dispatcher re-timings). Shared rides have their
    /// own tests.
    public func oneRiderAtATime() async throws {
        try await pool.withConnection { conn in
            try conn.execute("UPDATE vans SET seats = 1")
            try conn.execute(
                """
                INSERT INTO settings (key, value, updated_by) VALUES ('scheduler', '{"windowMinutes": 0, "stepMinutes": 5}', 'test')
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """)
        }
    }
}
