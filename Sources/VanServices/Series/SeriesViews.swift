import Foundation
import VanDomain
import VanScheduler

/// A series as people outside read it: the API's JSON and `vanadmin series --json` alike.
public struct StandingSeriesView: Encodable, Sendable {
    /// What each occurrence is booked from.
    public struct Template: Encodable, Sendable {
        /// Where the van picks up.
        public let pickup: RideView.Endpoint
        /// Where the van drops off.
        public let dropoff: RideView.Endpoint
        /// The local time asked each day, `HH:MM`.
        public let time: String
        /// `pickup` or `arrive_by`.
        public let promise: String
        /// Needs a wheelchair position.
        public let needsWheelchair: Bool
        /// Companions riding along.
        public let companions: Int
        /// The note for the driver.
        public let note: String?

        enum CodingKeys: String, CodingKey {
            case pickup, dropoff, time, promise, needsWheelchair = "needs_wheelchair", companions, note
        }
    }

    /// A hold as shown.
    public struct Hold: Encodable, Sendable {
        /// The hold's number (its path's last part).
        public let id: Int64
        /// First held date.
        public let from: String
        /// Last held date.
        public let to: String
        /// When it was made.
        public let createdAt: String
        /// Who made it.
        public let createdBy: String
        /// When it was resumed early, if it was.
        public let resumedAt: String?
        /// Whether it may still be resumed.
        public let open: Bool

        enum CodingKeys: String, CodingKey { case id, from, to, createdAt = "created_at", createdBy = "created_by", resumedAt = "resumed_at", open }
    }

    /// A closed day of the pattern.
    public struct ClosedDay: Encodable, Sendable {
        /// The date.
        public let date: String
        /// The office's reason.
        public let reason: String?
    }

    /// The series' id.
    public let seriesID: String
    /// `mon` … `sun`.
    public let weekdays: [String]
    /// The last date.
    public let until: String
    /// The template.
    public let template: Template
    /// Its holds (only in a full view).
    public let holds: [Hold]?
    /// The pattern's closed days from today on (only in a full view).
    public let closedDays: [ClosedDay]?
    /// Its rides, whatever their status (only in a full view).
    public let rides: [RideView]?

    enum CodingKeys: String, CodingKey {
        case seriesID = "series_id", weekdays, until, template, holds, closedDays = "closed_days", rides
    }

    /// The pattern and template alone.
    public init(_ series: StandingSeries, clock: ServiceTime) {
        self.init(series, holds: nil, closedDays: nil, rides: nil, today: nil, clock: clock)
    }

    /// The whole series: pattern, template, holds (open as of `now`), closed days and rides.
    public init(_ detail: SeriesDetail, now: Date, clock: ServiceTime) {
        self.init(
            detail.series, holds: detail.holds, closedDays: detail.closedDays, rides: detail.rides,
            today: LocalDate(containing: now, in: clock.timeZone), clock: clock)
    }

    private init(
        _ series: StandingSeries, holds: [SeriesHold]?, closedDays: [LocalDate: String?]?, rides: [Ride]?, today: LocalDate?, clock: ServiceTime
    ) {
        func endpoint(_ e: RideEndpoint) -> RideView.Endpoint { RideView.Endpoint(e) }
        let t = series.template
        seriesID = series.id.uuidString.lowercased()
        weekdays = series.weekdayCodes
        until = series.until.description
        template = Template(
            pickup: endpoint(t.pickup), dropoff: endpoint(t.dropoff), time: t.time.description, promise: t.promise.rawValue,
            needsWheelchair: t.needsWheelchair, companions: t.companions, note: t.note)
        self.holds = holds.map { list in
            list.map { hold in
                Hold(
                    id: hold.id, from: hold.from.description, to: hold.to.description, createdAt: clock.format(hold.createdAt),
                    createdBy: hold.createdBy, resumedAt: hold.resumedAt.map(clock.format), open: today.map(hold.isOpen(today:)) ?? false)
            }
        }
        self.closedDays = closedDays.map { days in days.keys.sorted().map { ClosedDay(date: $0.description, reason: days[$0] ?? nil) } }
        self.rides = rides.map { $0.map { RideView($0, clock: clock) } }
    }
}

/// One date of a series change as shown: what becomes of it, and for a conflict the scheduler's
/// sentence and suggestions, each with the `choice` to send back to take it.
public struct SeriesDateView: Encodable, Sendable {
    /// A time offered instead.
    public struct Suggestion: Encodable, Sendable {
        /// The time to ask for (pickup or arrival, as the template promises), with the zone's offset.
        public let at: String
        /// The same as a choice: `HH:MM` on the date.
        public let choice: String
        /// The planned pickup.
        public let plannedPickupAt: String
        /// Within the ±1 hour the ADA lets a provider negotiate.
        public let withinAdaWindow: Bool
        /// Minutes from the time asked (negative: earlier).
        public let minutesFromRequested: Int

        enum CodingKeys: String, CodingKey {
            case at, choice, plannedPickupAt = "planned_pickup_at", withinAdaWindow = "within_ada_window"
            case minutesFromRequested = "minutes_from_requested"
        }
    }

    /// The local date.
    public let date: String
    /// `fits`, `conflict`, `skipped`, `kept` or `closed`.
    public let result: String
    /// The time asked that day, when something is booked.
    public let requestedAt: String?
    /// The ride the change replaces (its id), if the date had one.
    public let was: String?
    /// Its reference.
    public let wasRef: String?
    /// The ride as booked (applied) or as it would be (a check), when it fits.
    public let ride: RideView?
    /// Why it does not fit (a refusal code, `overlaps_own_ride`), or the closure's reason.
    public let reason: String?
    /// The sentence to read ("The van is occupied at 4:30 PM. Does 4:45 PM work?").
    public let detail: String?
    /// Times that work instead (a conflict).
    public let suggestions: [Suggestion]
    /// What she chose for the date, if she chose: `skip`, `keep` or `HH:MM`.
    public let choice: String?

    enum CodingKeys: String, CodingKey {
        case date, result, requestedAt = "requested_at", was, wasRef = "was_ref", ride, reason, detail, suggestions, choice
    }

    /// The view of one date, its times written by `clock`.
    public init(_ answer: SeriesDateAnswer, clock: ServiceTime) {
        date = answer.date.description
        requestedAt = answer.asked.map(clock.format)
        was = answer.was?.id.uuidString.lowercased()
        wasRef = answer.was?.ref.rawValue
        choice = answer.choice?.text
        var ride: RideView?, reason: String?, detail: String?, suggestions: [Suggestion] = []
        switch answer.result {
        case .fits(let booked):
            result = "fits"
            ride = RideView(booked, clock: clock)
        case .conflict(let outcome):
            result = "conflict"
            reason = outcome.refusalCode
            detail = outcome.sentence(clock: clock)
            if case .refused(let feasibility, _) = outcome {
                suggestions = feasibility.suggestions.map { s in
                    Suggestion(
                        at: clock.format(s.asked), choice: clock.text(s.asked, .formTime), plannedPickupAt: clock.format(s.pickupAt),
                        withinAdaWindow: s.withinADAWindow, minutesFromRequested: s.minutesFromRequested)
                }
            }
        case .skipped: result = "skipped"
        case .kept: result = "kept"
        case .closed(let why):
            result = "closed"
            reason = why ?? "closed"
            detail = "The service is closed that day" + (why.map { " (\($0))" } ?? "") + ", so the series has no ride then."
        }
        self.ride = ride
        self.reason = reason
        self.detail = detail
        self.suggestions = suggestions
    }
}

/// A series change as shown: applied or not, the series as it stands, and every date it touches.
public struct SeriesChangeView: Encodable, Sendable {
    /// Whether the change was made.
    public let applied: Bool
    /// How many dates wait for her choice.
    public let conflicts: Int
    /// The series (pattern and template).
    public let series: StandingSeriesView
    /// The dates, in order.
    public let dates: [SeriesDateView]

    /// The view of `answer`.
    public init(_ answer: SeriesChangeAnswer, clock: ServiceTime) {
        applied = answer.applied
        conflicts = answer.conflicts.count
        series = StandingSeriesView(answer.series, clock: clock)
        dates = answer.dates.map { SeriesDateView($0, clock: clock) }
    }
}

/// A hold as its answer shows it: the hold and the rides it cancelled.
public struct SeriesHoldView: Encodable, Sendable {
    /// The hold.
    public let hold: StandingSeriesView.Hold
    /// The rides cancelled.
    public let cancelled: [RideView]

    /// The view of `answer`.
    public init(_ answer: SeriesHoldAnswer, clock: ServiceTime) {
        let h = answer.hold
        hold = StandingSeriesView.Hold(
            id: h.id, from: h.from.description, to: h.to.description, createdAt: clock.format(h.createdAt), createdBy: h.createdBy,
            resumedAt: h.resumedAt.map(clock.format), open: h.resumedAt == nil)
        cancelled = answer.cancelled.map { RideView($0, clock: clock) }
    }
}
