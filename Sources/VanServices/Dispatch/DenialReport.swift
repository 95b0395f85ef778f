import Foundation
import VanDomain
import VanPostgres

/// Reads a period's rides and refusals and tallies requests, negotiation and denials by day and
/// hour (``DenialTally``, docs/denials.md). Three statements on one connection; the rides are counted by the database.
public enum DenialReport {
    /// The tally of the local days `from` through `to`, as counted at `now` (a refusal counts once
    /// 10 minutes have passed with no booking of its trip).
    public static func load(pool: PGPool, from: LocalDate, to: LocalDate, timeZone: TimeZone, now: Date) async throws -> DenialTally {
        let start = from.interval(in: timeZone).start, end = to.interval(in: timeZone).end
        return try await pool.withConnection { conn in
            // A ride is counted at the time she asked first, on that day; it was picked up within
            // half a day of it (the longest ride is 12 hours).
            let zone = timeZone.identifier
            let rides: SQLQuery = """
                WITH r AS (
                    SELECT r.*, coalesce(r.negotiated_from, CASE WHEN r.promise = 'pickup' THEN r.window_start ELSE r.window_end END) AS first_asked
                    FROM rides r
                    WHERE r.pickup_at >= \(start.addingTimeInterval(-43_200)) AND r.pickup_at < \(end.addingTimeInterval(43_200))
                ), asked AS (SELECT * FROM r WHERE first_asked >= \(start) AND first_asked < \(end))
                """
            let hours = try conn.query(
                """
                \(rides)
                SELECT (first_asked AT TIME ZONE \(zone))::date::text AS day, extract(hour FROM first_asked AT TIME ZONE \(zone))::int AS hour,
                       count(*) AS requests, count(negotiated_minutes) AS negotiated,
                       coalesce(sum(abs(negotiated_minutes)), 0)::int AS moved_total, max(abs(negotiated_minutes)) AS moved_max,
                       count(*) FILTER (WHERE status NOT IN ('rejected', 'cancelled')) AS rides,
                       count(*) FILTER (WHERE series_id IS NOT NULL AND status NOT IN ('rejected', 'cancelled')) AS standing_rides
                FROM asked GROUP BY 1, 2
                """
            ).map { row in
                DenialTally.HourCounts(
                    day: try LocalDate(try row.decode(String.self, "day")), hour: try row.decode(Int.self, "hour"),
                    requests: try row.decode(Int.self, "requests"), negotiated: try row.decode(Int.self, "negotiated"),
                    movedTotal: try row.decode(Int.self, "moved_total"), movedMax: try row.decode(Int?.self, "moved_max"),
                    rides: try row.decode(Int.self, "rides"), standingRides: try row.decode(Int.self, "standing_rides"))
            }
            let deniedRides = try conn.query(
                """
                \(rides)
                SELECT a.ref, a.net_id, a.first_asked, a.negotiated_minutes, a.status, a.series_id IS NOT NULL AS standing,
                       coalesce(pp.name, a.pickup_address, 'a map point') AS pickup_words,
                       coalesce(dp.name, a.dropoff_address, 'a map point') AS dropoff_words
                FROM asked a
                LEFT JOIN places pp ON pp.id = a.pickup_place_id
                LEFT JOIN places dp ON dp.id = a.dropoff_place_id
                WHERE a.status = 'rejected' OR abs(a.negotiated_minutes) > \(Int(TripRequests.negotiationLimit / 60))
                """
            ).map { row in
                DenialTally.DeniedRide(
                    ref: try row.decode(String.self, "ref"), netID: try row.decode(String.self, "net_id"),
                    trip: "\(try row.decode(String.self, "pickup_words")) → \(try row.decode(String.self, "dropoff_words"))",
                    firstAsked: try row.decode(Date.self, "first_asked"), negotiatedMinutes: try row.decode(Int?.self, "negotiated_minutes"),
                    rejected: try row.decode(String.self, "status") == "rejected", standing: try row.decode(Bool.self, "standing"))
            }
            var words: [TripKey: String] = [:]
            let refusals = try conn.query(
                """
                SELECT id, net_id, trip_key, trip_words, requested_pickup_at, refused_at, reason, standing FROM booking_refusals
                WHERE answered_by IS NULL AND requested_pickup_at >= \(start) AND requested_pickup_at < \(end)
                """
            ).map { row in
                let trip = TripKey(rawValue: try row.decode(String.self, "trip_key"))
                let asked = try row.decode(Date.self, "requested_pickup_at")
                let tripWords = try row.decode(String.self, "trip_words")
                if !tripWords.isEmpty { words[trip] = tripWords }
                return TripRequests.Refusal(
                    id: try row.decode(Int64.self, "id"), netID: try row.decode(String.self, "net_id"), trip: trip,
                    day: LocalDate(containing: asked, in: timeZone), asked: asked, refusedAt: try row.decode(Date.self, "refused_at"),
                    reason: try row.decode(String.self, "reason"), standing: try row.decode(Bool.self, "standing"))
            }
            return DenialTally(
                hours: hours, deniedRides: deniedRides, denied: TripRequests.denials(refusals, now: now), tripWords: words, from: from,
                timeZone: timeZone)
        }
    }
}
