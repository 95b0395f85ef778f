import Foundation

/// A proposed suspension under the no-show policy: the written notice, her appeal, the office's
/// decision (49 CFR 37.125(h): notice, a chance to be heard, a written decision with reasons).
public struct Suspension: Sendable, Hashable {
    /// Where the case is.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// The notice went out; it takes effect on its start unless she appeals in time.
        case proposed
        /// She appealed in time: on hold until the office decides.
        case appealed
        /// The office upheld it: in effect for its period.
        case upheld
        /// The office overturned it: never in effect.
        case overturned
    }

    /// A trip the notice names.
    public struct Trip: Sendable, Hashable {
        /// The ride.
        public var rideID: UUID
        /// Its reference.
        public var ref: String
        /// Its planned pickup.
        public var pickupAt: Date
        /// How she missed it.
        public var missed: NoShowRecord.Missed

        /// A named trip.
        public init(rideID: UUID, ref: String, pickupAt: Date, missed: NoShowRecord.Missed) {
            self.rideID = rideID
            self.ref = ref
            self.pickupAt = pickupAt
            self.missed = missed
        }
    }

    /// Her appeal.
    public struct Appeal: Sendable, Hashable {
        /// Her words.
        public var text: String
        /// When it was filed.
        public var filedAt: Date
        /// Who filed it: she herself, or the dispatcher who took her call.
        public var filedBy: String

        /// An appeal as filed.
        public init(text: String, filedAt: Date, filedBy: String) {
            self.text = text
            self.filedAt = filedAt
            self.filedBy = filedBy
        }
    }

    /// The office's written decision.
    public struct Decision: Sendable, Hashable {
        /// Upheld (true) or overturned.
        public var upheld: Bool
        /// The reasons given.
        public var reason: String
        /// Who decided.
        public var decidedBy: String
        /// When.
        public var decidedAt: Date

        /// A decision as made.
        public init(upheld: Bool, reason: String, decidedBy: String, decidedAt: Date) {
            self.upheld = upheld
            self.reason = reason
            self.decidedBy = decidedBy
            self.decidedAt = decidedAt
        }
    }

    /// The case's number (`vanadmin appeals decide ID`).
    public var id: Int64
    /// The rider.
    public var netID: String
    /// Where the case is.
    public var status: Status
    /// The trips the notice names, oldest first.
    public var trips: [Trip]
    /// The step of the progression (1: her first suspension within a year).
    public var step: Int
    /// The period, in days.
    public var periodDays: Int
    /// When the notice was written.
    public var noticedAt: Date
    /// The first day of the suspension.
    public var startsOn: LocalDate
    /// The first day she rides again.
    public var endsOn: LocalDate
    /// The last day she may appeal.
    public var appealBy: LocalDate
    /// Her appeal, once filed.
    public var appeal: Appeal?
    /// The office's decision, once made.
    public var decision: Decision?
    /// When the service cancelled her rides in the period (the suspension began).
    public var startedAt: Date?

    /// A case as stored.
    public init(
        id: Int64, netID: String, status: Status, trips: [Trip], step: Int, periodDays: Int, noticedAt: Date, startsOn: LocalDate,
        endsOn: LocalDate, appealBy: LocalDate, appeal: Appeal? = nil, decision: Decision? = nil, startedAt: Date? = nil
    ) {
        self.id = id
        self.netID = netID
        self.status = status
        self.trips = trips
        self.step = step
        self.periodDays = periodDays
        self.noticedAt = noticedAt
        self.startsOn = startsOn
        self.endsOn = endsOn
        self.appealBy = appealBy
        self.appeal = appeal
        self.decision = decision
        self.startedAt = startedAt
    }

    /// Whether it keeps her from riding on `day`: proposed (not appealed) or upheld, and the day
    /// inside the period. An appeal on hold and an overturned case never do.
    public func blocks(_ day: LocalDate) -> Bool {
        (status == .proposed || status == .upheld) && startsOn <= day && day < endsOn
    }

    /// Whether she may still appeal on `today`.
    public func canAppeal(on today: LocalDate) -> Bool { status == .proposed && today <= appealBy }

    /// Whether the case is still open on `today`: not overturned, and its period not over.
    public func isOpen(on today: LocalDate) -> Bool { status != .overturned && today < endsOn }

    /// Where the case stands on `today`, in a few words.
    public func phase(on today: LocalDate) -> String {
        switch status {
        case .overturned: return "overturned"
        case .appealed: return "appealed, on hold"
        case .proposed, .upheld:
            if today >= endsOn { return "ended" }
            if today >= startsOn { return "in effect" }
            return status == .upheld ? "upheld, starts \(startsOn)" : "notice, starts \(startsOn)"
        }
    }

    /// The suspension's period, as she reads it: "from Thursday, December 10 to Wednesday,
    /// December 16 (you may ride again on Thursday, December 17)".
    public func periodWords(_ clock: ServiceTime) -> String {
        let last = LocalDate(dayNumber: endsOn.dayNumber - 1)
        return "from \(Self.day(startsOn, clock)) to \(Self.day(last, clock)) (you may ride again on \(Self.day(endsOn, clock)))"
    }

    /// "Thursday, December 10".
    public static func day(_ day: LocalDate, _ clock: ServiceTime) -> String {
        clock.text(day.interval(in: clock.timeZone).start.addingTimeInterval(12 * 3_600), .weekdayAndDate)
    }

    /// The booking's refusal while it blocks her: names the dates and the office's number.
    public func bookingRefusal(_ clock: ServiceTime, hotline: String?) -> String {
        let call = hotline.map { "call the office at \($0)" } ?? "call the office"
        return "Your rides are suspended under the no-show policy \(periodWords(clock)). "
            + "For a ride you need for medical reasons, or if this is wrong, \(call)."
    }
}
