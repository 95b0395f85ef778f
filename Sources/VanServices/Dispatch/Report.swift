import Foundation
import VanDomain
import VanPostgres

/// What the service did between two dates (local, inclusive): for the office's
/// monthly numbers and for spotting riders who keep missing the van.
public struct Report: Sendable, Codable {
    /// First local date.
    public let from: LocalDate
    /// Last local date.
    public let to: LocalDate
    /// Rides requested (pickup in the range).
    public let requests: Int
    /// Now approved (not yet completed).
    public let approved: Int
    /// Rejected by the dispatcher.
    public let rejected: Int
    /// Cancelled in time.
    public let cancelled: Int
    /// Cancelled within the late window.
    public let cancelledLate: Int
    /// No-shows.
    public let noShows: Int
    /// Completed.
    public let completed: Int
    /// Denials as 49 CFR 37.131(b) counts them: requests with no ride within an hour of the time
    /// asked (``DenialTally``); `negotiation` has them by day and hour.
    public let denials: Int
    /// Requests, negotiated times and denials by day and by hour, with every denial and the
    /// standing rides' share of each hour.
    public let negotiation: DenialTally
    /// Median minutes from request to the dispatcher's decision.
    public let medianDecisionMinutes: Double?
    /// Share of requests needing a wheelchair position (0…1).
    public let wheelchairShare: Double
    /// Hours each van was booked (pending, approved or completed).
    public let vanHours: [String: Double]
    /// Riders with two or more no-shows, most first.
    public let repeatedNoShows: [String: Int]

    /// Computes the report as of `now` (a refusal counts as a denial once 10 minutes pass with no booking of its trip).
    public static func load(pool: PGPool, from: LocalDate, to: LocalDate, timeZone: TimeZone, now: Date) async throws -> Report {
        let start = from.interval(in: timeZone).start
        let end = to.interval(in: timeZone).end
        let negotiation = try await DenialReport.load(pool: pool, from: from, to: to, timeZone: timeZone, now: now)
        return try await pool.withConnection { conn in
            let counts = try conn.query(
                """
                SELECT count(*) AS requests,
                       count(*) FILTER (WHERE status = 'approved') AS approved,
                       count(*) FILTER (WHERE status = 'rejected') AS rejected,
                       count(*) FILTER (WHERE status = 'cancelled' AND NOT cancelled_late) AS cancelled,
                       count(*) FILTER (WHERE status = 'cancelled' AND cancelled_late) AS cancelled_late,
                       count(*) FILTER (WHERE status = 'no_show') AS no_shows,
                       count(*) FILTER (WHERE status = 'completed') AS completed,
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM decided_at - requested_at) / 60)
                           FILTER (WHERE decided_at IS NOT NULL) AS median_decision_minutes,
                       coalesce(avg(needs_wheelchair::int), 0) AS wheelchair_share
                FROM rides WHERE pickup_at >= \(start) AND pickup_at < \(end)
                """
            ).first!
            var vanHours: [String: Double] = [:]
            for row in try conn.query(
                """
                SELECT v.name AS van_name, sum(extract(epoch FROM r.estimated_dropoff_at - r.pickup_at)) / 3600 AS hours
                FROM rides r JOIN vans v ON v.id = r.van_id
                WHERE r.status IN ('pending', 'approved', 'completed') AND r.pickup_at >= \(start) AND r.pickup_at < \(end)
                GROUP BY v.name ORDER BY v.name
                """)
            {
                vanHours[try row.decode(String.self, "van_name")] = (try row.decode(Double.self, "hours") * 100).rounded() / 100
            }
            var noShows: [String: Int] = [:]
            for row in try conn.query(
                """
                SELECT net_id, count(*) AS no_shows FROM rides WHERE status = 'no_show' AND pickup_at >= \(start) AND pickup_at < \(end)
                GROUP BY net_id HAVING count(*) >= 2
                """)
            {
                noShows[try row.decode(String.self, "net_id")] = try row.decode(Int.self, "no_shows")
            }
            return Report(
                from: from, to: to, requests: try counts.decode(Int.self, "requests"), approved: try counts.decode(Int.self, "approved"),
                rejected: try counts.decode(Int.self, "rejected"), cancelled: try counts.decode(Int.self, "cancelled"),
                cancelledLate: try counts.decode(Int.self, "cancelled_late"), noShows: try counts.decode(Int.self, "no_shows"),
                completed: try counts.decode(Int.self, "completed"), denials: negotiation.total.denials, negotiation: negotiation,
                medianDecisionMinutes: try counts.decode(Double?.self, "median_decision_minutes"),
                wheelchairShare: try counts.decode(Double.self, "wheelchair_share"), vanHours: vanHours, repeatedNoShows: noShows
            )
        }
    }
}
