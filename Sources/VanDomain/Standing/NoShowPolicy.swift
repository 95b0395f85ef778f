import Foundation

/// The office's no-show policy, as it publishes it: when a rider's missed trips become a "pattern
/// or practice" (49 CFR 37.125(h)), and what follows. `vanadmin policy show` reads it aloud;
/// `vanadmin policy set` changes it (audited).
///
/// The defaults follow the guidance the office answers to: a pattern needs both a substantial
/// number and an above-average share of her trips (DREDF/TranSystems, *No-Shows in ADA
/// Paratransit*, FTA topic guide, 2010), late cancellations may count where they cost what a
/// no-show costs (FTA's answer on no-show suspensions), and suspensions grow one step at a time
/// (TCRP Synthesis 60, *Practices in No-Show and Late Cancellation Policies*, 2005).
public struct NoShowPolicy: Sendable, Hashable, Codable {
    /// At least this many counted no-shows…
    public var noShows: Int = 3
    /// …in a rolling window of this many days…
    public var withinDays: Int = 30
    /// …and at least this share (percent) of her scheduled trips in it.
    public var sharePercent: Double = 10
    /// Whether her late cancellations (``BookingPolicy/lateCancellation``) count like no-shows.
    public var lateCancelsCount: Bool = true
    /// The suspension's length in days, one step further for each suspension within a year.
    public var suspendDays: [Int] = [7, 14, 21, 28]
    /// The suspension starts this many days after the notice.
    public var noticeDays: Int = 10
    /// The days she has to appeal, from the notice.
    public var appealDays: Int = 10
    /// Whether a no-show on a ride there cancels its way back (booked with it, or a will-call).
    /// Off by default: the legs are separate trips, as ADA guidance reads them; the dispatcher
    /// sees the way back flagged instead.
    public var noShowCancelsReturn: Bool = false

    /// The defaults.
    public init() {}

    /// A policy as stored; a number the office never set (one added since) is its default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = NoShowPolicy()
        noShows = try c.decodeIfPresent(Int.self, forKey: .noShows) ?? defaults.noShows
        withinDays = try c.decodeIfPresent(Int.self, forKey: .withinDays) ?? defaults.withinDays
        sharePercent = try c.decodeIfPresent(Double.self, forKey: .sharePercent) ?? defaults.sharePercent
        lateCancelsCount = try c.decodeIfPresent(Bool.self, forKey: .lateCancelsCount) ?? defaults.lateCancelsCount
        suspendDays = try c.decodeIfPresent([Int].self, forKey: .suspendDays) ?? defaults.suspendDays
        noticeDays = try c.decodeIfPresent(Int.self, forKey: .noticeDays) ?? defaults.noticeDays
        appealDays = try c.decodeIfPresent(Int.self, forKey: .appealDays) ?? defaults.appealDays
        noShowCancelsReturn = try c.decodeIfPresent(Bool.self, forKey: .noShowCancelsReturn) ?? defaults.noShowCancelsReturn
    }

    enum CodingKeys: String, CodingKey {
        case noShows = "no_shows"
        case withinDays = "within_days"
        case sharePercent = "share_percent"
        case lateCancelsCount = "late_cancels_count"
        case suspendDays = "suspend_days"
        case noticeDays = "notice_days"
        case appealDays = "appeal_days"
        case noShowCancelsReturn = "no_show_cancels_return"
    }

    /// How far back the office counts earlier suspensions for the next step.
    public static let stepMemoryDays = 365

    /// The period of the `step`th suspension within a year (1-based; past the last step, the last).
    public func periodDays(step: Int) -> Int {
        suspendDays[min(max(step, 1), suspendDays.count) - 1]
    }

    /// Every problem with the numbers, each naming its option; empty when the policy is sound.
    public var problems: [ValidationError] {
        var problems: [ValidationError] = []
        if !(1...100).contains(noShows) { problems.append(.init(field: "no-shows", reason: "must be 1 to 100")) }
        if !(1...365).contains(withinDays) { problems.append(.init(field: "within-days", reason: "must be 1 to 365 days")) }
        if !(0...100).contains(sharePercent) || sharePercent.isNaN {
            problems.append(.init(field: "share", reason: "must be a percent from 0 to 100"))
        }
        if suspendDays.isEmpty || suspendDays.count > 10 || suspendDays.contains(where: { !(1...365).contains($0) }) {
            problems.append(.init(field: "suspend-days", reason: "must be 1 to 10 periods of 1 to 365 days, e.g. 7,14,21,28"))
        }
        if !(0...90).contains(noticeDays) { problems.append(.init(field: "notice-days", reason: "must be 0 to 90 days")) }
        if !(1...90).contains(appealDays) { problems.append(.init(field: "appeal-days", reason: "must be 1 to 90 days")) }
        return problems
    }

    /// The policy in sentences a dispatcher can read to a rider on the phone.
    public var sentences: [String] {
        let share = sharePercent.rounded() == sharePercent ? "\(Int(sharePercent))" : "\(sharePercent)"
        let periods = suspendDays.map(String.init).joined(separator: ", ")
        return [
            "A pattern of missed trips is at least \(noShows) counted no-show\(noShows == 1 ? "" : "s") in \(withinDays) days, "
                + "and at least \(share) % of the trips scheduled in them.",
            lateCancelsCount
                ? "A late cancellation counts like a no-show."
                : "Late cancellations do not count.",
            "A no-show counts only when the van came within the pickup window and waited the full wait; "
                + "a trip missed for a reason beyond the rider's control is excused by the office.",
            "The suspension lasts \(periods) days: one step longer for each suspension within a year.",
            "It starts \(noticeDays) days after the written notice; she may appeal within \(appealDays) days, "
                + "and an appeal puts it on hold until the office decides.",
            noShowCancelsReturn
                ? "A no-show on a ride there cancels her way back once the driver's tap stands."
                : "A no-show on a ride there leaves her way back booked: the two legs are separate trips.",
        ]
    }
}
