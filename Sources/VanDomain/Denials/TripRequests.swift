import Foundation

/// A request is what a rider asked for one trip on one day, however many times she asked: the
/// refusals of that trip, each within ``answerWindow`` of the one before, and the booking that
/// answered them, if any (49 CFR 37.131(b)). Pure: the booking and the reports read the rows and
/// ask this what they come to.
public enum TripRequests {
    /// How long after a refusal a booking of the same trip still answers it (10 minutes): she
    /// read the suggestions and took one, or asked again.
    public static let answerWindow: TimeInterval = 600

    /// How far from the time first asked a booking may move before it is a denial (60 minutes).
    public static let negotiationLimit: TimeInterval = 3600

    /// The refusal codes that deny service: no van could take her. A request outside the service's
    /// hours or on a closed day is not a denial (no trip is offered then), nor is a rider's own
    /// overlapping ride or a suspension.
    public static let denyingReasons: Set<String> = ["occupied", "no_wheelchair_van", "no_active_van"]

    /// One refusal of a trip, as the booking recorded it.
    public struct Refusal: Hashable, Sendable {
        /// Its row id.
        public var id: Int64
        /// The rider.
        public var netID: String
        /// The trip.
        public var trip: TripKey
        /// The service day of the time asked.
        public var day: LocalDate
        /// The time asked: a pickup, or an arrival.
        public var asked: Date
        /// When it was refused.
        public var refusedAt: Date
        /// The refusal code (``denyingReasons`` for those that count).
        public var reason: String
        /// Whether a standing series asked.
        public var standing: Bool

        /// A refusal.
        public init(id: Int64, netID: String, trip: TripKey, day: LocalDate, asked: Date, refusedAt: Date, reason: String, standing: Bool) {
            self.id = id
            self.netID = netID
            self.trip = trip
            self.day = day
            self.asked = asked
            self.refusedAt = refusedAt
            self.reason = reason
            self.standing = standing
        }
    }

    /// What a booking made at `bookedAt` answers among `refusals` of its trip and day (any order):
    /// the latest refusal within ``answerWindow`` before it, and each earlier one within the window
    /// of the next. Oldest first; empty when she asked nothing of this trip lately.
    public static func answered(by bookedAt: Date, among refusals: [Refusal]) -> [Refusal] {
        var chain: [Refusal] = []
        var next = bookedAt
        for refusal in refusals.filter({ $0.refusedAt <= bookedAt }).sorted(by: { $0.refusedAt > $1.refusedAt }) {
            guard next.timeIntervalSince(refusal.refusedAt) <= answerWindow else { break }
            chain.append(refusal)
            next = refusal.refusedAt
        }
        return chain.reversed()
    }

    /// One request that ended with no ride: a chain of unanswered refusals of one trip on one day.
    public struct Denied: Hashable, Sendable {
        /// The rider.
        public var netID: String
        /// The trip.
        public var trip: TripKey
        /// The service day.
        public var day: LocalDate
        /// The time she asked first.
        public var firstAsked: Date
        /// When the last refusal was given.
        public var lastRefusedAt: Date
        /// The last refusal's code.
        public var reason: String
        /// How many times she asked.
        public var attempts: Int
        /// Whether a standing series asked.
        public var standing: Bool
    }

    /// The requests among `unanswered` refusals that are denials by `now`: each rider's refusals of a
    /// trip on a day, chained while each comes within ``answerWindow`` of the one before, whose
    /// last refusal is at least that long ago, and whose reason denies service (the last one's:
    /// what she was told when she gave up). Ordered by the time first asked.
    public static func denials(_ unanswered: [Refusal], now: Date) -> [Denied] {
        struct Trip: Hashable {
            let netID: String
            let trip: TripKey
            let day: LocalDate
        }
        var denied: [Denied] = []
        for (_, refusals) in Dictionary(grouping: unanswered, by: { Trip(netID: $0.netID, trip: $0.trip, day: $0.day) }) {
            var chain: [Refusal] = []
            func close() {
                guard let first = chain.first, let last = chain.last,
                    now.timeIntervalSince(last.refusedAt) >= answerWindow, denyingReasons.contains(last.reason)
                else { return }
                denied.append(
                    Denied(
                        netID: first.netID, trip: first.trip, day: first.day, firstAsked: first.asked, lastRefusedAt: last.refusedAt,
                        reason: last.reason, attempts: chain.count, standing: chain.contains(where: \.standing)))
            }
            for refusal in refusals.sorted(by: { ($0.refusedAt, $0.id) < ($1.refusedAt, $1.id) }) {
                if let last = chain.last, refusal.refusedAt.timeIntervalSince(last.refusedAt) > answerWindow {
                    close()
                    chain = []
                }
                chain.append(refusal)
            }
            close()
        }
        return denied.sorted { ($0.firstAsked, $0.netID) < ($1.firstAsked, $1.netID) }
    }
}
