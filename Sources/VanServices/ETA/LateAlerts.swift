import Foundation
import VanPostgres
import VanScheduler

/// Late alerts: a ride whose stop's ETA passed the end of its promised window is recorded once in
/// `ride_alerts` (primary key: ride and kind), and that one insert writes the ride event `late`
/// (sql/0030: webhook, log and the rider's inbox with the new time; NOTIFY `vand_ride_events` and
/// `vand_ride_late`). Any number of nodes may raise the same ride at once; one wins.
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

    /// Records each of `late` (stops of `vanID`'s rides) not yet recorded, as of `now`; returns the
    /// rides this call raised. A ride that no longer holds a van is not raised.
    @discardableResult
    public func raise(_ late: [VanETAs.LateStop], vanID: Int64, now: Date) async throws -> [UUID] {
        guard !late.isEmpty else { return [] }
        return try await pool.withTransaction { conn in
            var raised: [UUID] = []
            // In ride order, so two nodes raising the same rides never wait on each other in a cycle.
            for stop in late.sorted(by: { $0.rideID.uuidString < $1.rideID.uuidString }) {
                let rows = try conn.query("""
                    INSERT INTO ride_alerts (ride_id, kind, raised_at, stop, eta, window_end, van_id)
                    SELECT id, 'late', \(now), \(stop.stop.rawValue), \(stop.eta), \(stop.windowEnd), \(vanID)
                    FROM rides WHERE id = \(stop.rideID) AND ride_holds_van(status)
                    ON CONFLICT (ride_id, kind) DO NOTHING
                    RETURNING ride_id
                    """)
                raised += try rows.map { try $0.decode(UUID.self, at: 0) }
            }
            return raised
        }
    }

    /// Late alerts raised at or after `since`, oldest first (for the planner re-planning from the road).
    public func raised(since: Date) async throws -> [Alert] {
        try await pool.withConnection { conn in
            try conn.query("""
                SELECT ride_id, van_id, stop, eta, window_end, raised_at FROM ride_alerts
                WHERE kind = 'late' AND raised_at >= \(since) ORDER BY raised_at, ride_id
                """).map { row in
                Alert(rideID: try row.decode(UUID.self, at: 0), vanID: try row.decode(Int64?.self, at: 1), stop: try row.decode(String.self, at: 2),
                      eta: try row.decode(Date.self, at: 3), windowEnd: try row.decode(Date.self, at: 4), raisedAt: try row.decode(Date.self, at: 5))
            }
        }
    }
}
