import Foundation
import VanPostgres

/// The reminder: every approved ride whose pickup is within the lead time and
/// still ahead is reminded exactly once. One statement claims and marks it
/// (`FOR UPDATE SKIP LOCKED` inside an `UPDATE … RETURNING`), so two loops never
/// remind the same ride and a restart never reminds it again. Setting
/// `reminded_at` makes the trigger write the `reminder` event.
public struct Reminders: Sendable {
    let pool: PGPool
    /// How long before pickup.
    public let lead: TimeInterval

    /// Reminders on `pool`, `lead` seconds before pickup.
    public init(pool: PGPool, lead: TimeInterval) {
        self.pool = pool
        self.lead = lead
    }

    /// Fires every due reminder as of `now`; returns the reminded ride ids.
    /// A ride approved (or moved) after its reminder time is reminded at once.
    @discardableResult
    public func fire(now: Date, batch: Int = 100) async throws -> [UUID] {
        var fired: [UUID] = []
        while true {
            let horizon = now.addingTimeInterval(lead)
            let ids = try await pool.withConnection { conn in
                try conn.query("""
                    UPDATE rides SET reminded_at = \(now)
                    WHERE id IN (
                        SELECT id FROM rides
                        WHERE status = 'approved' AND reminded_at IS NULL AND pickup_at > \(now) AND pickup_at <= \(horizon)
                        ORDER BY pickup_at LIMIT \(batch)
                        FOR UPDATE SKIP LOCKED)
                      AND status = 'approved' AND reminded_at IS NULL
                    RETURNING id
                    """).map { try $0.decode(UUID.self, at: 0) }
            }
            fired += ids
            if ids.count < batch { return fired }
        }
    }

    /// When the next reminder falls due (pickup minus lead), if any ride waits for one.
    public func nextDue(after now: Date) async throws -> Date? {
        let lead = self.lead
        return try await pool.withConnection { conn in
            try conn.query("""
                SELECT min(pickup_at) FROM rides WHERE status = 'approved' AND reminded_at IS NULL AND pickup_at > \(now)
                """).first?.decode(Date?.self, at: 0)?.addingTimeInterval(-lead)
        }
    }
}
