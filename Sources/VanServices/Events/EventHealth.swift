import Foundation
import VanPostgres

/// How the trigger loop is keeping up, read at scrape time for the metrics.
public struct EventHealth: Sendable, Hashable {
    /// Deliveries not yet made and not parked.
    public let deliveriesWaiting: Int
    /// The worst lateness of a reminder in the last hour, in seconds (0 when none was late).
    public let worstReminderLagSeconds: Double

    /// Reads both in one pool round trip; `reminderLead` is how long before pickup a reminder is due.
    public static func read(_ pool: PGPool, reminderLead: TimeInterval) async throws -> EventHealth {
        try await pool.withConnection { conn in
            let waiting = try conn.query("SELECT count(*) AS n FROM deliveries WHERE delivered_at IS NULL AND parked_at IS NULL").first!.decode(
                Int.self, "n")
            let lag = try conn.query(
                """
                SELECT coalesce(max(extract(epoch FROM reminded_at - greatest(coalesce(reminder_eta, pickup_at) - make_interval(secs => \(reminderLead)), coalesce(decided_at, created_at)))), 0)::float8 AS lag_seconds
                FROM rides WHERE reminded_at > now() - interval '1 hour'
                """
            ).first!.decode(Double.self, "lag_seconds")
            return EventHealth(deliveriesWaiting: waiting, worstReminderLagSeconds: max(0, lag))
        }
    }
}
