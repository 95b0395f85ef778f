import Foundation

/// A rider's record under the no-show policy: each missed trip in the policy's rolling window,
/// whether it counts and, when not, why; her share of missed trips, and whether she crossed the
/// policy. Pure: the trips, the policy, the wait rule and the time in; the judgement out.
///
/// A no-show counts only when the driver's taps prove the van came within the pickup window
/// and waited the full wait (``NoShowRule``), and the office did not excuse it. A trip the van
/// reached late never counts (49 CFR 37.125(h): missed trips caused by the operator's lateness).
public struct NoShowRecord: Sendable, Hashable {
    /// One of her rides, as the record reads it.
    public struct Trip: Sendable, Hashable {
        /// The ride.
        public var rideID: UUID
        /// Its short reference (`K7M-3QX`).
        public var ref: String
        /// The planned pickup.
        public var pickupAt: Date
        /// Its status now.
        public var status: RideStatus
        /// Cancelled by her inside the late-cancellation notice.
        public var cancelledLate: Bool
        /// The window the van had to arrive in (``NoShowRule/pickupWindow(promise:plannedPickup:)``).
        public var pickupWindow: DateInterval
        /// The time she was last told the van would come (a late alert's ETA), if any.
        public var toldETA: Date?
        /// The driver's standing "arrived" tap at the pickup.
        public var arrivedAt: Date?
        /// The driver's standing "no-show" tap.
        public var noShowAt: Date?
        /// The office's excusal, with its reason.
        public var excusedFor: String?
        /// The earlier notice that named this trip already.
        public var namedInNotice: Int64?

        /// A trip as the record reads it.
        public init(
            rideID: UUID, ref: String, pickupAt: Date, status: RideStatus, cancelledLate: Bool = false, pickupWindow: DateInterval,
            toldETA: Date? = nil, arrivedAt: Date? = nil, noShowAt: Date? = nil, excusedFor: String? = nil, namedInNotice: Int64? = nil
        ) {
            self.rideID = rideID
            self.ref = ref
            self.pickupAt = pickupAt
            self.status = status
            self.cancelledLate = cancelledLate
            self.pickupWindow = pickupWindow
            self.toldETA = toldETA
            self.arrivedAt = arrivedAt
            self.noShowAt = noShowAt
            self.excusedFor = excusedFor
            self.namedInNotice = namedInNotice
        }

        /// A no-show, or her late cancellation: the trips the policy looks at.
        public var isMissed: Bool { status == .noShow || (status == .cancelled && cancelledLate) }

        /// A trip the van was sent for: served, missed, or still to be closed after its pickup.
        public var wasScheduled: Bool {
            switch status {
            case .approved, .completed, .noShow: true
            case .cancelled: cancelledLate
            case .pending, .rejected: false
            }
        }
    }

    /// What the record makes of a missed trip.
    public enum Verdict: Sendable, Hashable {
        /// It counts: a no-show the taps prove, or a late cancellation the policy counts.
        case counts(Missed)
        /// It does not count, and why.
        case excluded(Exclusion)

        /// Whether it counts.
        public var counts: Bool { if case .counts = self { true } else { false } }
    }

    /// How she missed it.
    public enum Missed: String, Sendable, Hashable, Codable {
        /// The van came and waited; she did not.
        case noShow = "no_show"
        /// She cancelled inside the late-cancellation notice.
        case lateCancel = "late_cancel"
    }

    /// Why a missed trip does not count.
    public enum Exclusion: Sendable, Hashable {
        /// The van arrived after the pickup window ended (the operator's lateness).
        case vanLate(arrivedAt: Date, windowEnd: Date)
        /// The driver marked the no-show before the full wait was over.
        case waitCut(noShowAt: Date, allowedFrom: Date)
        /// No driver's tap proves the van came and waited (the office recorded it by hand).
        case noTapProof
        /// The office excused it.
        case excused(reason: String)
        /// The policy does not count late cancellations.
        case lateCancelsIgnored

        /// A short code for JSON and CSV.
        public var code: String {
            switch self {
            case .vanLate: "van_late"
            case .waitCut: "wait_cut_short"
            case .noTapProof: "no_tap_proof"
            case .excused: "excused"
            case .lateCancelsIgnored: "late_cancels_ignored"
            }
        }

        /// Why, in words, with times in `clock`'s zone.
        public func sentence(_ clock: ServiceTime) -> String {
            switch self {
            case .vanLate(let arrived, let end):
                "the van arrived at \(clock.text(arrived, .clockTime)), after the window ended at \(clock.text(end, .clockTime))"
            case .waitCut(let at, let from):
                "the no-show was marked at \(clock.text(at, .clockTime)), before the wait ended at \(clock.text(from, .clockTime))"
            case .noTapProof: "no driver's tap shows the van came and waited"
            case .excused(let reason): "excused by the office: \(reason)"
            case .lateCancelsIgnored: "late cancellations do not count under the policy"
            }
        }
    }

    /// A missed trip and what the record makes of it.
    public struct Entry: Sendable, Hashable {
        /// The trip.
        public var trip: Trip
        /// Counts, or excluded and why.
        public var verdict: Verdict
    }

    /// The rolling window counted: the policy's days up to now.
    public let window: DateInterval
    /// Each missed trip in the window, oldest first.
    public let entries: [Entry]
    /// Trips the van was sent for in the window (her trips the share is taken of).
    public let scheduled: Int
    /// The policy judged by.
    public let policy: NoShowPolicy

    /// Judges `trips` (any of hers; those outside the window are left out) by `policy`, the
    /// no-show `rule` the driver's taps were held to, at `now`.
    public init(trips: [Trip], policy: NoShowPolicy, rule: NoShowRule, now: Date) {
        let window = DateInterval(start: now.addingTimeInterval(-Double(policy.withinDays) * 86_400), end: now)
        let inWindow = trips.filter { $0.pickupAt >= window.start && $0.pickupAt <= now }.sorted { $0.pickupAt < $1.pickupAt }
        self.window = window
        self.policy = policy
        scheduled = inWindow.filter(\.wasScheduled).count
        entries = inWindow.filter(\.isMissed).map { Entry(trip: $0, verdict: Self.verdict($0, policy: policy, rule: rule)) }
    }

    /// What the record makes of one missed trip.
    public static func verdict(_ trip: Trip, policy: NoShowPolicy, rule: NoShowRule) -> Verdict {
        if let reason = trip.excusedFor { return .excluded(.excused(reason: reason)) }
        let missed: Missed
        if trip.status == .noShow {
            // The van came late: never her fault, whoever recorded the no-show.
            if let arrivedAt = trip.arrivedAt, arrivedAt > trip.pickupWindow.end {
                return .excluded(.vanLate(arrivedAt: arrivedAt, windowEnd: trip.pickupWindow.end))
            }
            guard let arrivedAt = trip.arrivedAt, let noShowAt = trip.noShowAt else { return .excluded(.noTapProof) }
            switch rule.refusal(arrivedAt: arrivedAt, window: trip.pickupWindow, toldETA: trip.toldETA, now: noShowAt) {
            case .arrivedAfterWindow(let end): return .excluded(.vanLate(arrivedAt: arrivedAt, windowEnd: end))
            case .waiting(let from): return .excluded(.waitCut(noShowAt: noShowAt, allowedFrom: from))
            case .notArrived: return .excluded(.noTapProof)
            case nil: missed = .noShow
            }
        } else {
            guard policy.lateCancelsCount else { return .excluded(.lateCancelsIgnored) }
            missed = .lateCancel
        }
        return .counts(missed)
    }

    /// The trips that count, oldest first.
    public var counted: [Trip] { entries.filter(\.verdict.counts).map(\.trip) }

    /// The counted trips no notice has named yet: what a new notice may rest on (a trip is
    /// never named twice, so one pattern brings one suspension).
    public var unnoticed: [Trip] { counted.filter { $0.namedInNotice == nil } }

    /// Counted missed trips as a percent of her scheduled trips (0 with none scheduled).
    public var sharePercent: Double { Self.percent(counted.count, of: scheduled) }

    /// Whether the trips no notice has named cross the policy: enough of them, and a high
    /// enough share of her scheduled trips.
    public var crosses: Bool {
        unnoticed.count >= policy.noShows && Self.percent(unnoticed.count, of: scheduled) >= policy.sharePercent
    }

    private static func percent(_ count: Int, of total: Int) -> Double { total == 0 ? 0 : Double(count) / Double(total) * 100 }

    /// Where she stands, in one sentence: "2 counted in the last 30 days, 8 % of 25 scheduled trips (the policy: 3 and 10 %);
    /// this is within the policy."
    public var standingSentence: String {
        let share = Int(sharePercent.rounded())
        let policyShare = policy.sharePercent.rounded() == policy.sharePercent ? "\(Int(policy.sharePercent))" : "\(policy.sharePercent)"
        let named = counted.count - unnoticed.count
        let tail =
            named == 0
            ? (crosses ? "; this crosses the policy." : "; this is within the policy.")
            : "; \(named) of them named in a notice already, and the rest \(crosses ? "cross" : "are within") the policy."
        return "\(counted.count) counted in the last \(policy.withinDays) days, \(share) % of \(scheduled) scheduled trip\(scheduled == 1 ? "" : "s")"
            + " (the policy: \(policy.noShows) and \(policyShare) %)"
            + tail
    }
}
