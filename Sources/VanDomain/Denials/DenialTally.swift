import Foundation

/// Requests, negotiation and denials over a period, by day and by local hour of the time first
/// asked, as 49 CFR 37.131(b) counts them: a request is a ride booked, or a chain of refusals
/// that ended with none (``TripRequests``); a **denial** is a request with no ride within an hour
/// of the time she asked first: refused for lack of a van, booked more than 60 minutes away, or
/// rejected by the dispatcher. Standing rides' share of each hour's rides is counted beside it,
/// and an hour is flagged when standing rides fill more than half of it while other riders are
/// denied in it (the limit 49 CFR 37.133(c) sets). Pure: ``DenialReport`` reads the rows.
public struct DenialTally: Sendable, Hashable, Codable {
    /// The rides whose time first asked falls in one local hour, counted (by the database).
    public struct HourCounts: Sendable, Hashable {
        /// The local day.
        public var day: LocalDate
        /// The local hour, 0–23.
        public var hour: Int
        /// Rides booked (whatever became of them).
        public var requests: Int
        /// Of which booked at a time other than first asked.
        public var negotiated: Int
        /// Their minutes moved, added up (each as a distance).
        public var movedTotal: Int
        /// The most minutes one moved.
        public var movedMax: Int?
        /// Rides carried or holding a seat (not cancelled, not rejected).
        public var rides: Int
        /// Of which standing rides.
        public var standingRides: Int

        /// The counts of one hour.
        public init(
            day: LocalDate, hour: Int, requests: Int, negotiated: Int = 0, movedTotal: Int = 0, movedMax: Int? = nil, rides: Int,
            standingRides: Int = 0
        ) {
            self.day = day
            self.hour = hour
            self.requests = requests
            self.negotiated = negotiated
            self.movedTotal = movedTotal
            self.movedMax = movedMax
            self.rides = rides
            self.standingRides = standingRides
        }
    }

    /// A booked ride that is a denial all the same: rejected by the dispatcher, or booked more than
    /// 60 minutes from the time first asked. It is counted in its ``HourCounts`` already.
    public struct DeniedRide: Sendable, Hashable {
        /// Its reference.
        public var ref: String
        /// Its rider.
        public var netID: String
        /// Its trip in words ("Library → Health Center").
        public var trip: String
        /// The time she asked first.
        public var firstAsked: Date
        /// Minutes from the time first asked to the time booked, when it moved.
        public var negotiatedMinutes: Int?
        /// Rejected by the dispatcher.
        public var rejected: Bool
        /// Part of a standing series.
        public var standing: Bool

        /// A ride denied.
        public init(ref: String, netID: String, trip: String, firstAsked: Date, negotiatedMinutes: Int?, rejected: Bool, standing: Bool) {
            self.ref = ref
            self.netID = netID
            self.trip = trip
            self.firstAsked = firstAsked
            self.negotiatedMinutes = negotiatedMinutes
            self.rejected = rejected
            self.standing = standing
        }

        /// Whether it denies service: rejected, or moved more than ``TripRequests/negotiationLimit``.
        public var reason: String? {
            if rejected { return "rejected_by_dispatcher" }
            if let moved = negotiatedMinutes, Double(abs(moved)) * 60 > TripRequests.negotiationLimit { return "moved_over_an_hour" }
            return nil
        }
    }

    /// One denial, with what she was told.
    public struct Denial: Sendable, Hashable, Codable {
        /// The time she asked first.
        public var firstAsked: Date
        /// The rider.
        public var netID: String
        /// The trip in words.
        public var trip: String
        /// `occupied`, `no_wheelchair_van`, `no_active_van` (refused, ``TripRequests/denyingReasons``),
        /// `moved_over_an_hour` or `rejected_by_dispatcher`.
        public var reason: String
        /// How many times she asked (refusals); 1 for a ride.
        public var attempts: Int
        /// The ride, when one was booked (moved too far, or rejected).
        public var ref: String?
        /// Whether a standing series asked.
        public var standing: Bool

        /// The reason as a dispatcher reads it ("no van was free").
        public var reasonWords: String {
            switch reason {
            case "occupied": "no van was free"
            case "no_wheelchair_van": "no wheelchair position was free"
            case "no_active_van": "no van was in service"
            case "moved_over_an_hour": "booked over an hour from the time asked"
            case "rejected_by_dispatcher": "rejected by a dispatcher"
            default: reason.replacingOccurrences(of: "_", with: " ")
            }
        }
    }

    /// One line of the tally: a day, or an hour of a day.
    public struct Line: Sendable, Hashable, Codable {
        /// The local day.
        public var day: LocalDate
        /// The local hour (0–23), nil on a day's line or the total.
        public var hour: Int?
        /// Requests: rides booked, and requests that ended with none.
        public var requests = 0
        /// Booked at a time other than first asked.
        public var negotiated = 0
        /// The mean minutes moved, over the negotiated.
        public var negotiatedMinutesMean: Double?
        /// The most minutes moved.
        public var negotiatedMinutesMax: Int?
        /// Denials.
        public var denials = 0
        /// Denials over requests (0 with no requests).
        public var denialShare: Double { requests == 0 ? 0 : Double(denials) / Double(requests) }
        /// Rides carried or holding a seat.
        public var rides = 0
        /// Of which standing rides.
        public var standingRides = 0
        /// Standing rides over rides (0 with no rides).
        public var standingShare: Double { rides == 0 ? 0 : Double(standingRides) / Double(rides) }
        /// Denials of riders who were not riding a standing series.
        public var otherDenials = 0
        /// Standing rides fill more than half of the hour while other riders are denied in it.
        public var standingOverHalf: Bool { hour != nil && otherDenials > 0 && standingRides * 2 > rides }

        fileprivate var movedTotal = 0

        enum CodingKeys: String, CodingKey {
            case day, hour, requests, negotiated, negotiatedMinutesMean, negotiatedMinutesMax, denials, denialShare
            case rides, standingRides, standingShare, standingOverHalf
        }

        /// Encodes the line with its shares and flag.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(day, forKey: .day)
            try c.encodeIfPresent(hour, forKey: .hour)
            try c.encode(requests, forKey: .requests)
            try c.encode(negotiated, forKey: .negotiated)
            try c.encodeIfPresent(negotiatedMinutesMean, forKey: .negotiatedMinutesMean)
            try c.encodeIfPresent(negotiatedMinutesMax, forKey: .negotiatedMinutesMax)
            try c.encode(denials, forKey: .denials)
            try c.encode(denialShare, forKey: .denialShare)
            try c.encode(rides, forKey: .rides)
            try c.encode(standingRides, forKey: .standingRides)
            try c.encode(standingShare, forKey: .standingShare)
            try c.encode(standingOverHalf, forKey: .standingOverHalf)
        }

        /// Decodes a line (the shares and flag are computed).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            day = try c.decode(LocalDate.self, forKey: .day)
            hour = try c.decodeIfPresent(Int.self, forKey: .hour)
            requests = try c.decode(Int.self, forKey: .requests)
            negotiated = try c.decode(Int.self, forKey: .negotiated)
            negotiatedMinutesMean = try c.decodeIfPresent(Double.self, forKey: .negotiatedMinutesMean)
            negotiatedMinutesMax = try c.decodeIfPresent(Int.self, forKey: .negotiatedMinutesMax)
            denials = try c.decode(Int.self, forKey: .denials)
            rides = try c.decode(Int.self, forKey: .rides)
            standingRides = try c.decode(Int.self, forKey: .standingRides)
        }

        init(day: LocalDate, hour: Int?) {
            self.day = day
            self.hour = hour
        }

        mutating func add(_ counts: HourCounts) {
            requests += counts.requests
            negotiated += counts.negotiated
            movedTotal += counts.movedTotal
            if let moved = counts.movedMax { negotiatedMinutesMax = max(negotiatedMinutesMax ?? 0, moved) }
            negotiatedMinutesMean = negotiated == 0 ? nil : Double(movedTotal) / Double(negotiated)
            rides += counts.rides
            standingRides += counts.standingRides
        }

        mutating func countDenial(standing: Bool) {
            denials += 1
            if !standing { otherDenials += 1 }
        }

        mutating func countRequest(denied standing: Bool) {
            requests += 1
            countDenial(standing: standing)
        }
    }

    /// The whole period (`day` is its first day).
    public var total: Line
    /// One line a day with requests, in order.
    public var days: [Line]
    /// One line an hour with requests, in order.
    public var hours: [Line]
    /// Every denial, by the time first asked.
    public var denials: [Denial]

    /// The hours where standing rides fill more than half while others are denied.
    public var standingWarnings: [Line] { hours.filter(\.standingOverHalf) }

    /// Tallies the rides booked, counted by hour (`hours`), the booked rides that deny service all the
    /// same (`deniedRides`), and the requests that ended with no ride (`denied`,
    /// ``TripRequests/denials(_:now:)``, with their trips in words by key), from `from`, in `timeZone`.
    public init(
        hours counted: [HourCounts], deniedRides: [DeniedRide], denied: [TripRequests.Denied], tripWords: [TripKey: String],
        from: LocalDate, timeZone: TimeZone
    ) {
        struct Slot: Hashable {
            let day: LocalDate
            let hour: Int
        }
        func slot(_ date: Date) -> Slot {
            let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
            let seconds = local - (local / 86_400).rounded(.down) * 86_400
            return Slot(day: LocalDate(containing: date, in: timeZone), hour: min(23, Int(seconds / 3600)))
        }
        var total = Line(day: from, hour: nil)
        var days: [LocalDate: Line] = [:]
        var hours: [Slot: Line] = [:]
        func add(_ s: Slot, _ change: (inout Line) -> Void) {
            change(&total)
            change(&days[s.day, default: Line(day: s.day, hour: nil)])
            change(&hours[s, default: Line(day: s.day, hour: s.hour)])
        }
        for counts in counted { add(Slot(day: counts.day, hour: counts.hour)) { $0.add(counts) } }
        var denials: [Denial] = []
        for ride in deniedRides {
            guard let reason = ride.reason else { continue }
            add(slot(ride.firstAsked)) { $0.countDenial(standing: ride.standing) }
            denials.append(
                Denial(
                    firstAsked: ride.firstAsked, netID: ride.netID, trip: ride.trip, reason: reason, attempts: 1, ref: ride.ref,
                    standing: ride.standing))
        }
        for request in denied {
            add(slot(request.firstAsked)) { $0.countRequest(denied: request.standing) }
            denials.append(
                Denial(
                    firstAsked: request.firstAsked, netID: request.netID, trip: tripWords[request.trip] ?? request.trip.rawValue,
                    reason: request.reason, attempts: request.attempts, ref: nil, standing: request.standing))
        }
        self.total = total
        self.days = days.values.sorted { $0.day < $1.day }
        self.hours = hours.values.sorted { ($0.day, $0.hour ?? 0) < ($1.day, $1.hour ?? 0) }
        self.denials = denials.sorted { ($0.firstAsked, $0.netID) < ($1.firstAsked, $1.netID) }
    }
}
