import Foundation
import VanDomain

/// A rider's standing under the no-show policy, as `GET /v1/me/standing` and
/// `vanadmin riders standing --json` show it.
public struct StandingView: Encodable, Sendable {
    /// One missed trip and what the record makes of it.
    public struct Entry: Encodable, Sendable {
        let rideID: UUID
        let ref: String
        let pickupAt: String
        let missed: String
        let counts: Bool
        let excludedBecause: String?
        let reason: String?

        enum CodingKeys: String, CodingKey {
            case ref, missed, counts, reason
            case rideID = "ride_id"
            case pickupAt = "pickup_at"
            case excludedBecause = "excluded_because"
        }
    }

    /// The policy she is judged by.
    public struct Policy: Encodable, Sendable {
        let noShows: Int
        let withinDays: Int
        let sharePercent: Double
        let lateCancelsCount: Bool
        let suspendDays: [Int]
        let noticeDays: Int
        let appealDays: Int
        let sentences: [String]

        enum CodingKeys: String, CodingKey {
            case sentences
            case noShows = "no_shows"
            case withinDays = "within_days"
            case sharePercent = "share_percent"
            case lateCancelsCount = "late_cancels_count"
            case suspendDays = "suspend_days"
            case noticeDays = "notice_days"
            case appealDays = "appeal_days"
        }
    }

    /// One case: the notice, her appeal, the decision.
    public struct Case: Encodable, Sendable {
        let id: Int64
        let status: String
        let phase: String
        let trips: [String]
        let step: Int
        let periodDays: Int
        let noticedAt: String
        let startsOn: String
        let endsOn: String
        let appealBy: String
        let canAppeal: Bool
        let appeal: String?
        let decision: String?

        enum CodingKeys: String, CodingKey {
            case id, status, phase, trips, step, appeal, decision
            case periodDays = "period_days"
            case noticedAt = "noticed_at"
            case startsOn = "starts_on"
            case endsOn = "ends_on"
            case appealBy = "appeal_by"
            case canAppeal = "can_appeal"
        }
    }

    /// The rider.
    public let netID: String
    /// The policy's rolling window, in days.
    public let windowDays: Int
    /// Her trips the van was sent for in it.
    public let scheduledTrips: Int
    /// Missed trips that count.
    public let counted: Int
    /// Counted as a percent of scheduled.
    public let sharePercent: Double
    /// Whether the record crosses the policy.
    public let crossesPolicy: Bool
    /// Where she stands, in one sentence.
    public let standing: String
    /// Whether a suspension keeps her from riding today.
    public let suspendedNow: Bool
    /// Each missed trip in the window.
    public let entries: [Entry]
    /// Her cases, newest first.
    public let cases: [Case]
    /// The policy.
    public let policy: Policy

    enum CodingKeys: String, CodingKey {
        case counted, standing, entries, cases, policy
        case netID = "net_id"
        case windowDays = "window_days"
        case scheduledTrips = "scheduled_trips"
        case sharePercent = "share_percent"
        case crossesPolicy = "crosses_policy"
        case suspendedNow = "suspended_now"
    }

    /// The view of `standing` on `today`, with times as `clock` writes them (RFC 3339 with the zone's offset).
    public init(_ standing: RiderStanding, today: LocalDate, clock: ServiceTime) {
        let record = standing.record
        netID = standing.netID
        windowDays = record.policy.withinDays
        scheduledTrips = record.scheduled
        counted = record.counted.count
        sharePercent = (record.sharePercent * 10).rounded() / 10
        crossesPolicy = record.crosses
        self.standing = record.standingSentence
        suspendedNow = standing.cases.contains { $0.blocks(today) }
        entries = record.entries.map { entry in
            var because: String?
            var reason: String?
            if case .excluded(let exclusion) = entry.verdict {
                because = exclusion.code
                reason = exclusion.sentence(clock)
            }
            return Entry(
                rideID: entry.trip.rideID, ref: entry.trip.ref, pickupAt: clock.format(entry.trip.pickupAt),
                missed: entry.trip.status == .noShow ? "no_show" : "late_cancel", counts: entry.verdict.counts,
                excludedBecause: because, reason: reason)
        }
        cases = standing.cases.map { s in
            Case(
                id: s.id, status: s.status.rawValue, phase: s.phase(on: today), trips: s.trips.map(\.ref), step: s.step,
                periodDays: s.periodDays, noticedAt: clock.format(s.noticedAt), startsOn: s.startsOn.rawValue, endsOn: s.endsOn.rawValue,
                appealBy: s.appealBy.rawValue, canAppeal: s.canAppeal(on: today), appeal: s.appeal?.text, decision: s.decision?.reason)
        }
        let p = record.policy
        policy = Policy(
            noShows: p.noShows, withinDays: p.withinDays, sharePercent: p.sharePercent, lateCancelsCount: p.lateCancelsCount,
            suspendDays: p.suspendDays, noticeDays: p.noticeDays, appealDays: p.appealDays, sentences: p.sentences)
    }
}
