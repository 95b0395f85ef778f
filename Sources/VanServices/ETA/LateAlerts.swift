import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// Late alerts are state, one row a ride in `ride_alerts` (sql/0030, sql/0035): *raised* when a
/// stop's ETA is late by ``Lateness``'s rule, *updated* as its whole minutes move, *cleared* when the
/// van recovers, the stop is served, the ride ends or moves to another van, and raised again if it
/// turns late again. Raising writes the ride event `late` (webhook, log, and the rider's inbox with
/// the new time); an update or a clear only NOTIFYs `vand_ride_late`, on which the console refreshes.
/// Any number of nodes may sync the same van at once: a van's sync holds a transaction lock on it.
public struct LateAlerts: Sendable {
    let pool: PGPool

    /// Alerts on `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// A recorded late alert.
    public struct Alert: Sendable, Hashable {
        /// The ride.
        public var rideID: UUID
        /// The van it was late on.
        public var vanID: Int64?
        /// The stop whose ETA passed its window: `pickup` or `dropoff`.
        public var stop: String
        /// The ETA when it was raised.
        public var eta: Date
        /// The end of the promised window.
        public var windowEnd: Date
        /// When it was raised.
        public var raisedAt: Date
    }

    /// What one sync changed, by ride.
    public struct Changes: Sendable, Hashable {
        /// Alerts raised: new, or cleared before and late again (each wrote the event `late`).
        public var raised: [UUID] = []
        /// Open alerts whose figure (the ETA's whole minutes, the stop, the van) changed.
        public var updated: [UUID] = []
        /// Alerts cleared.
        public var cleared: [UUID] = []
    }

    /// The transaction lock a van's sync holds (`pg_advisory_xact_lock(key, van)`).
    static let lockKey: Int32 = 0x6C61_7465  // "late"

    /// Makes `vanID`'s alerts what its ETAs say now: each of `late` (stops of its rides, as
    /// ``VanETAs/late``) raised or updated, and every other open alert of the van cleared with its
    /// reason. A ride no longer on this van, or no longer holding one, is not raised from here.
    @discardableResult
    public func sync(van vanID: Int64, late: [VanETAs.LateStop], now: Date) async throws -> Changes {
        try await pool.withTransaction { conn in
            var changes = Changes()
            _ = try conn.query("SELECT pg_advisory_xact_lock(\(Self.lockKey), \(Int32(truncatingIfNeeded: vanID)))")
            for stop in late.sorted(by: { RunOrder.bytesPrecede($0.rideID, $1.rideID) }) {
                // RETURNING's subquery reads the statement's snapshot: the row as it was before.
                for row in try conn.query(
                    """
                    INSERT INTO ride_alerts (ride_id, kind, raised_at, updated_at, stop, eta, window_end, van_id)
                    SELECT id, 'late', \(now), \(now), \(stop.stop.rawValue), \(stop.eta), \(stop.windowEnd), \(vanID)
                    FROM rides WHERE id = \(stop.rideID) AND ride_holds_van(status) AND van_id = \(vanID)
                    ON CONFLICT (ride_id, kind) DO UPDATE SET
                        raised_at = CASE WHEN ride_alerts.cleared_at IS NULL THEN ride_alerts.raised_at ELSE EXCLUDED.raised_at END,
                        updated_at = EXCLUDED.updated_at, stop = EXCLUDED.stop, eta = EXCLUDED.eta, window_end = EXCLUDED.window_end,
                        van_id = EXCLUDED.van_id, cleared_at = NULL, cleared_reason = NULL
                    WHERE ride_alerts.cleared_at IS NOT NULL OR ride_alerts.van_id IS DISTINCT FROM EXCLUDED.van_id
                       OR ride_alerts.stop <> EXCLUDED.stop OR ride_alerts.window_end <> EXCLUDED.window_end
                       OR vand_late_minutes(ride_alerts.eta, ride_alerts.window_end) <> vand_late_minutes(EXCLUDED.eta, EXCLUDED.window_end)
                    RETURNING ride_id, COALESCE((SELECT o.cleared_at IS NULL FROM ride_alerts o WHERE o.ride_id = ride_alerts.ride_id AND o.kind = 'late'), false) AS was_open
                    """)
                {
                    let id = try row.decode(UUID.self, "ride_id")
                    if try row.decode(Bool.self, "was_open") { changes.updated.append(id) } else { changes.raised.append(id) }
                }
            }
            let open = late.map(\.rideID).postgresArrayLiteral
            changes.cleared = try conn.query(
                """
                UPDATE ride_alerts a SET cleared_at = \(now), updated_at = \(now), cleared_reason = CASE
                    WHEN NOT ride_holds_van(r.status) THEN 'ended'
                    WHEN r.van_id IS DISTINCT FROM a.van_id THEN 'moved'
                    WHEN EXISTS (SELECT 1 FROM stop_actuals s WHERE s.ride_id = a.ride_id AND s.stop = a.stop AND s.outcome IS NOT NULL) THEN 'served'
                    ELSE 'recovered' END
                FROM rides r
                WHERE r.id = a.ride_id AND a.kind = 'late' AND a.van_id = \(vanID) AND a.cleared_at IS NULL
                  AND a.ride_id <> ALL(\(open)::uuid[])
                RETURNING a.ride_id
                """
            ).map { try $0.decode(UUID.self, "ride_id") }
            return changes
        }
    }

    /// Late alerts raised at or after `since`, oldest first (for the planner re-planning from the road).
    public func raised(since: Date) async throws -> [Alert] {
        try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT ride_id, van_id, stop, eta, window_end, raised_at FROM ride_alerts
                WHERE kind = 'late' AND raised_at >= \(since) ORDER BY raised_at, ride_id
                """
            ).map { row in
                Alert(
                    rideID: try row.decode(UUID.self, "ride_id"), vanID: try row.decode(Int64?.self, "van_id"),
                    stop: try row.decode(String.self, "stop"),
                    eta: try row.decode(Date.self, "eta"), windowEnd: try row.decode(Date.self, "window_end"),
                    raisedAt: try row.decode(Date.self, "raised_at"))
            }
        }
    }
}
