import Foundation
import VanDomain
import VanPostgres

/// The reminder: every approved ride is reminded exactly once, `lead` before the van reaches its
/// pickup. One statement claims and marks it (`FOR UPDATE SKIP LOCKED` inside an
/// `UPDATE … RETURNING`), so two loops never remind the same ride and a restart never reminds it
/// again. Setting `reminded_at` makes the trigger write the `reminder` event.
///
/// Two sources, never both for one ride: while the ride's van is *on the road* (an open shift with
/// a position no older than `positionStale`, or a tap today) the reminder fires from the van's ETA
/// at the pickup (``fire(fromETAs:now:)``, called as ETAs are worked out; `reminder_eta` keeps the
/// ETA for the rider's message); otherwise from the planned pickup (``fire(now:batch:)``).
public struct Reminders: Sendable {
    let pool: PGPool
    /// How long before pickup.
    public let lead: TimeInterval
    /// How old a position may be and still put its van on the road.
    public let positionStale: TimeInterval
    /// The service zone, whose day a tap must fall in to put its van on the road.
    public let timeZone: TimeZone

    /// Reminders on `pool`, `lead` seconds before pickup; positions older than `positionStale`
    /// seconds count as unknown; "today" is the day in `timeZone`.
    public init(pool: PGPool, lead: TimeInterval, positionStale: TimeInterval = 120, timeZone: TimeZone = TimeZone(identifier: "America/New_York")!) {
        self.pool = pool
        self.lead = lead
        self.positionStale = positionStale
        self.timeZone = timeZone
    }

    /// Fires every reminder due from the plan as of `now`; returns the reminded ride ids.
    /// A ride approved (or moved) after its reminder time is reminded at once. Rides whose van is
    /// on the road are left to ``fire(fromETAs:now:)``.
    @discardableResult
    public func fire(now: Date, batch: Int = 100) async throws -> [UUID] {
        var fired: [UUID] = []
        let offRoadRides = offRoad(now: now)
        while true {
            let horizon = now.addingTimeInterval(lead)
            let ids = try await pool.withConnection { conn in
                try conn.query(
                    """
                    UPDATE rides SET reminded_at = \(now), reminder_eta = NULL
                    WHERE id IN (
                        SELECT id FROM rides
                        WHERE status = 'approved' AND reminded_at IS NULL AND pickup_at > \(now) AND pickup_at <= \(horizon)
                          AND \(offRoadRides)
                        ORDER BY pickup_at LIMIT \(batch)
                        FOR UPDATE SKIP LOCKED)
                      AND status = 'approved' AND reminded_at IS NULL
                    RETURNING id
                    """
                ).map { try $0.decode(UUID.self, "id") }
            }
            fired += ids
            if ids.count < batch { return fired }
        }
    }

    /// Fires the reminders due from `etas` (a van on the road): each approved ride whose pickup
    /// ETA is within the lead, not yet reminded, once. Returns the reminded ride ids.
    @discardableResult
    public func fire(fromETAs etas: VanETAs, now: Date) async throws -> [UUID] {
        let due = etas.dueReminders(lead: lead)
        guard !due.isEmpty else { return [] }
        let ids = due.map(\.rideID).postgresArrayLiteral
        let times = "{" + due.map { "\"\(PGTimestamp.format($0.eta))\"" }.joined(separator: ",") + "}"
        return try await pool.withConnection { conn in
            try conn.query(
                """
                UPDATE rides r SET reminded_at = \(now), reminder_eta = d.eta
                FROM (SELECT id, eta FROM unnest(\(ids)::uuid[], \(times)::timestamptz[]) AS d (id, eta)) d
                WHERE r.id = d.id AND r.id IN (
                    SELECT id FROM rides WHERE id = ANY(\(ids)::uuid[]) AND status = 'approved' AND reminded_at IS NULL
                    FOR UPDATE SKIP LOCKED)
                  AND r.status = 'approved' AND r.reminded_at IS NULL
                RETURNING r.id
                """
            ).map { try $0.decode(UUID.self, "id") }
        }
    }

    /// When the next reminder from the plan falls due (pickup minus lead), if any ride waits for one.
    public func nextDue(after now: Date) async throws -> Date? {
        let lead = self.lead
        let offRoadRides = offRoad(now: now)
        return try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT min(pickup_at) AS next_pickup_at FROM rides
                WHERE status = 'approved' AND reminded_at IS NULL AND pickup_at > \(now) AND \(offRoadRides)
                """
            ).first?.decode(Date?.self, "next_pickup_at")?.addingTimeInterval(-lead)
        }
    }

    /// The condition that a ride's van (`rides.van_id`) is not on the road at `now`.
    func offRoad(now: Date) -> SQLQuery {
        let today = LocalDate(containing: now, in: timeZone).interval(in: timeZone)
        return """
            NOT EXISTS (
                SELECT 1 FROM shifts s
                WHERE s.van_id = rides.van_id AND s.ended_at IS NULL
                  AND (EXISTS (SELECT 1 FROM van_positions p WHERE p.van_id = s.van_id AND p.at >= \(now.addingTimeInterval(-positionStale)))
                       OR EXISTS (SELECT 1 FROM stop_taps t JOIN shifts ts ON ts.id = t.shift_id
                                  WHERE ts.van_id = s.van_id AND t.undone_at IS NULL AND t.at >= \(today.start) AND t.at <= \(now))))
            """
    }
}
