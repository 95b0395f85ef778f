import Foundation
import VanDomain
import VanPostgres

/// The no-show policy's figures for a period (local dates, inclusive): the rates it is judged
/// by, and what the office did under it (`vanadmin report`).
public struct PolicyReport: Sendable, Codable {
    /// Trips the van was sent for (completed, no-shows, late cancellations, approved and past).
    public let scheduledTrips: Int
    /// No-shows among them.
    public let noShows: Int
    /// Late cancellations by riders among them.
    public let lateCancels: Int
    /// No-shows as a percent of scheduled trips.
    public let noShowRatePercent: Double
    /// Late cancellations as a percent of scheduled trips.
    public let lateCancelRatePercent: Double
    /// Missed trips the office excused in the period.
    public let excused: Int
    /// Notices sent in the period.
    public let notices: Int
    /// Appeals filed in the period.
    public let appeals: Int
    /// Appeals upheld in the period.
    public let upheld: Int
    /// Appeals overturned in the period.
    public let overturned: Int
    /// Suspensions that started in the period.
    public let suspensionsStarted: Int
    /// Riders under notice at the end of the period (a case proposed or on hold, not yet started).
    public let ridersUnderNotice: [String]
    /// Riders suspended on the period's last day.
    public let ridersSuspended: [String]

    enum CodingKeys: String, CodingKey {
        case scheduledTrips = "scheduled_trips"
        case noShows = "no_shows"
        case lateCancels = "late_cancels"
        case noShowRatePercent = "no_show_rate_percent"
        case lateCancelRatePercent = "late_cancel_rate_percent"
        case excused, notices, appeals, upheld, overturned
        case suspensionsStarted = "suspensions_started"
        case ridersUnderNotice = "riders_under_notice"
        case ridersSuspended = "riders_suspended"
    }

    /// The figures from `from` to `to` in `timeZone`, at `now`.
    public static func load(pool: PGPool, from: LocalDate, to: LocalDate, timeZone: TimeZone, now: Date) async throws -> PolicyReport {
        let start = from.interval(in: timeZone).start
        let end = min(to.interval(in: timeZone).end, max(now, start))
        let periodEnd = to.interval(in: timeZone).end
        return try await pool.withConnection { conn in
            let trips = try conn.query(
                """
                SELECT count(*) FILTER (WHERE status IN ('completed', 'no_show', 'approved')
                                           OR (status = 'cancelled' AND cancelled_by = 'rider' AND cancelled_late)) AS scheduled,
                       count(*) FILTER (WHERE status = 'no_show') AS no_shows,
                       count(*) FILTER (WHERE status = 'cancelled' AND cancelled_by = 'rider' AND cancelled_late) AS late_cancels
                FROM rides WHERE pickup_at >= \(start) AND pickup_at < \(end)
                """
            ).first!
            let cases = try conn.query(
                """
                SELECT (SELECT count(*) FROM noshow_excusals WHERE excused_at >= \(start) AND excused_at < \(periodEnd)) AS excused,
                       count(*) FILTER (WHERE noticed_at >= \(start) AND noticed_at < \(periodEnd)) AS notices,
                       count(*) FILTER (WHERE appeal_filed_at >= \(start) AND appeal_filed_at < \(periodEnd)) AS appeals,
                       count(*) FILTER (WHERE status = 'upheld' AND decided_at >= \(start) AND decided_at < \(periodEnd)) AS upheld,
                       count(*) FILTER (WHERE status = 'overturned' AND decided_at >= \(start) AND decided_at < \(periodEnd)) AS overturned,
                       count(*) FILTER (WHERE started_at >= \(start) AND started_at < \(periodEnd)) AS started,
                       coalesce(array_to_string(array_agg(DISTINCT net_id) FILTER (
                           WHERE status IN ('proposed', 'appealed') AND noticed_at < \(periodEnd) AND starts_on > \(to)), ','), '') AS under_notice,
                       coalesce(array_to_string(array_agg(DISTINCT net_id) FILTER (
                           WHERE status IN ('proposed', 'upheld') AND starts_on <= \(to) AND ends_on > \(to)), ','), '') AS suspended
                FROM suspensions
                """
            ).first!
            let scheduled = try trips.decode(Int.self, "scheduled")
            let noShows = try trips.decode(Int.self, "no_shows")
            let lateCancels = try trips.decode(Int.self, "late_cancels")
            func rate(_ n: Int) -> Double { scheduled == 0 ? 0 : (Double(n) / Double(scheduled) * 1_000).rounded() / 10 }
            func list(_ column: String) throws -> [String] {
                try cases.decode(String.self, column).split(separator: ",").map(String.init).sorted()
            }
            return PolicyReport(
                scheduledTrips: scheduled, noShows: noShows, lateCancels: lateCancels, noShowRatePercent: rate(noShows),
                lateCancelRatePercent: rate(lateCancels), excused: try cases.decode(Int.self, "excused"),
                notices: try cases.decode(Int.self, "notices"), appeals: try cases.decode(Int.self, "appeals"),
                upheld: try cases.decode(Int.self, "upheld"), overturned: try cases.decode(Int.self, "overturned"),
                suspensionsStarted: try cases.decode(Int.self, "started"), ridersUnderNotice: try list("under_notice"),
                ridersSuspended: try list("suspended"))
        }
    }

    /// The figures as measure/value rows (the table and `--policy-csv`).
    public var rows: [[String]] {
        [
            ["scheduled trips", "\(scheduledTrips)"], ["no-shows", "\(noShows)"], ["no-show rate %", String(format: "%.1f", noShowRatePercent)],
            ["late cancellations", "\(lateCancels)"], ["late-cancel rate %", String(format: "%.1f", lateCancelRatePercent)],
            ["missed trips excused", "\(excused)"], ["notices sent", "\(notices)"], ["appeals filed", "\(appeals)"],
            ["appeals upheld", "\(upheld)"], ["appeals overturned", "\(overturned)"], ["suspensions started", "\(suspensionsStarted)"],
            ["riders under notice", ridersUnderNotice.joined(separator: " ")], ["riders suspended", ridersSuspended.joined(separator: " ")],
        ]
    }
}
