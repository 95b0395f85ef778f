import Foundation
import VanDomain
import VanPostgres

/// What needs the dispatcher now: rides running late today, rides due soon on a van with no
/// driver on shift, today's no-shows, webhook deliveries parked after their last attempt, and
/// rides waiting for a decision longer than `VAND_PENDING_ALERT` or picked up soon.
public struct DispatchAlerts: Sendable {
    let pool: PGPool
    let timeZone: TimeZone

    /// Alerts over `pool`, "today" read in `timeZone`.
    public init(pool: PGPool, timeZone: TimeZone) {
        self.pool = pool
        self.timeZone = timeZone
    }

    /// A ride whose van runs late against its promise now (an open `ride_alerts` row, sql/0035).
    public struct Late: Sendable {
        /// The ride, its rider's name and phone.
        public let listing: RideQueries.Listing
        /// Which stop's ETA passed its window.
        public let stop: Manifest.Stop.Action
        /// The van's ETA there, as of the alert's last update (its whole minutes are current).
        public let eta: Date
        /// The end of the promised window it passed.
        public let windowEnd: Date
        /// When it was raised.
        public let raisedAt: Date

        /// How late, by the one rule (``Lateness``).
        public var lateness: Lateness { Lateness(at: eta, windowEnd: windowEnd) }
    }

    /// Everything on the alerts page, each list oldest first.
    public struct Snapshot: Sendable {
        /// Late rides still on the road (an open alert, approved, picked up today).
        public var late: [Late] = []
        /// Rides marked no-show today.
        public var noShows: [RideQueries.Listing] = []
        /// Parked webhook deliveries.
        public var parked: [FailedDelivery] = []
        /// Rides pending longer than the setting, or picked up soon.
        public var pending: [RideQueries.Listing] = []
        /// Approved rides today, not picked up, due within ``DispatchAlerts/unstaffedWithin`` (or
        /// overdue) on a van with no driver on shift: no one is coming unless the dispatcher acts.
        public var unstaffed: [RideQueries.Listing] = []

        /// How many alerts in all.
        public var count: Int { late.count + noShows.count + parked.count + pending.count + unstaffed.count }
    }

    /// At most this many of each kind are listed.
    public static let limit = 100

    /// A ride due this soon on a van with no driver on shift is an alert.
    public static let unstaffedWithin: TimeInterval = 30 * 60

    /// The SQL condition, on `rides r`, of a ride with no one coming: approved, on a van with no
    /// open shift, its pickup not tapped, due before `before`.
    static func unstaffed(before: Date) -> SQLQuery {
        """
        r.status = 'approved' AND r.van_id IS NOT NULL AND r.pickup_at < \(before)
        AND NOT EXISTS (SELECT 1 FROM shifts s WHERE s.van_id = r.van_id AND s.ended_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM stop_taps t WHERE t.ride_id = r.id AND t.stop = 'pickup' AND t.undone_at IS NULL)
        """
    }

    /// The alerts at `now`; a ride still pending that was asked for more than `pendingAfter`
    /// seconds ago, or whose pickup is less than ``PendingQueue/soon`` away, is one.
    public func snapshot(now: Date, pendingAfter: TimeInterval) async throws -> Snapshot {
        let today = LocalDate(containing: now, in: timeZone).interval(in: timeZone)
        var snapshot = try await pool.withConnection { conn in
            var snapshot = Snapshot()
            let late = try conn.query(
                """
                SELECT a.ride_id, a.stop, a.eta, a.window_end, a.raised_at FROM ride_alerts a JOIN rides r ON r.id = a.ride_id
                WHERE a.kind = 'late' AND a.cleared_at IS NULL AND r.status = 'approved'
                  AND r.pickup_at >= \(today.start) AND r.pickup_at < \(today.end)
                ORDER BY a.raised_at, a.ride_id LIMIT \(Self.limit)
                """
            ).map { row in
                (
                    id: try row.decode(UUID.self, "ride_id"), stop: try row.decode(String.self, "stop"), eta: try row.decode(Date.self, "eta"),
                    windowEnd: try row.decode(Date.self, "window_end"), raisedAt: try row.decode(Date.self, "raised_at")
                )
            }
            if !late.isEmpty {
                let list = late.map(\.id).postgresArrayLiteral
                let listings = Dictionary(
                    uniqueKeysWithValues: try RideQueries.listings(conn, where: "r.id = ANY(\(list)::uuid[])").map { ($0.ride.id, $0) })
                snapshot.late = late.compactMap { alert in
                    listings[alert.id].map {
                        Late(
                            listing: $0, stop: alert.stop == "dropoff" ? .dropoff : .pickup, eta: alert.eta, windowEnd: alert.windowEnd,
                            raisedAt: alert.raisedAt)
                    }
                }
            }
            snapshot.noShows = try RideQueries.listings(
                conn,
                where: """
                    r.status = 'no_show' AND r.pickup_at >= \(today.start) AND r.pickup_at < \(today.end)
                    """
            ).suffix(Self.limit).map { $0 }
            // Waited past the setting, or its pickup soon (PendingQueue.soon): in the queue's order.
            let soonBefore = now.addingTimeInterval(PendingQueue.soon)
            snapshot.pending = try PendingQueue.pending(
                conn, soonBefore: soonBefore,
                matching: """
                    requested_at <= \(now.addingTimeInterval(-pendingAfter)) OR pickup_at < \(soonBefore)
                    """, limit: Self.limit)
            snapshot.unstaffed = try RideQueries.listings(
                conn,
                where: """
                    \(Self.unstaffed(before: now.addingTimeInterval(Self.unstaffedWithin))) AND r.pickup_at >= \(today.start)
                    """
            ).prefix(Self.limit).map { $0 }
            return snapshot
        }
        snapshot.parked = Array(try await DeliveryQueue(pool: pool).failedWebhooks().prefix(Self.limit))
        return snapshot
    }
}
