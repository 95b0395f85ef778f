import Foundation
import Logging
import VanPostgres

/// The sinks inside the database and the process: the rider's inbox and the log.
/// Each batch is one transaction — claim (`FOR UPDATE SKIP LOCKED`), write the inbox
/// rows, mark delivered, commit — so a killed loop's batch simply rolls back and
/// nothing is written twice.
struct LocalSinks: Sendable {
    let pool: PGPool
    let messages: RiderMessage
    let logger: Logger

    /// Delivers one batch as of `now`; returns how many deliveries were done.
    func deliverBatch(now: Date, limit: Int) async throws -> Int {
        let messages = self.messages
        let (count, logged) = try await pool.withTransaction { conn -> (Int, [RideEvent]) in
            let rows = try conn.query(
                """
                SELECT d.sink, \(RideEvent.columns)
                FROM deliveries d JOIN ride_events e ON e.id = d.event_id
                WHERE d.sink IN ('rider', 'log') AND d.delivered_at IS NULL AND d.parked_at IS NULL AND d.next_attempt_at <= \(now)
                ORDER BY d.event_id LIMIT \(limit)
                FOR UPDATE OF d SKIP LOCKED
                """)
            var log: [RideEvent] = []
            for row in rows {
                let sink = try row.decode(String.self, "sink")
                let event = try RideEvent(row: row)
                if sink == "log" {
                    log.append(event)
                } else if let netID = event.netID {
                    try conn.execute(
                        """
                        INSERT INTO notifications (net_id, event_id, ride_id, kind, message, created_at)
                        VALUES (\(netID), \(event.id), \(event.rideID), \(event.kind), \(messages.text(for: event)), \(now))
                        ON CONFLICT (event_id) DO NOTHING
                        """)
                }
                try conn.execute(
                    """
                    UPDATE deliveries SET delivered_at = \(now), attempts = attempts + 1
                    WHERE event_id = \(event.id) AND sink = \(sink)
                    """)
            }
            return (rows.count, log)
        }
        // One line per event, after the commit (a rolled-back batch logs nothing).
        for event in logged {
            var metadata: Logger.Metadata = ["event": "\(event.id)", "kind": "\(event.kind)", "ride": "\(event.rideID)"]
            if let netID = event.netID { metadata["rider"] = "\(netID)" }
            logger.info("ride event", metadata: metadata)
        }
        return count
    }
}
