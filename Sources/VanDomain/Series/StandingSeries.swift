import Foundation

/// A weekly standing ride as the rider set it up: the pattern (weekdays through a last date) and
/// the template each occurrence is booked from. Its rides share ``id`` as their series id.
public struct StandingSeries: Sendable, Hashable {
    /// The series id (the rides' `series_id`).
    public var id: UUID
    /// Whose series it is.
    public var netID: NetID
    /// Weekdays it runs, 1 = Sunday … 7 = Saturday (as ``Recurrence`` counts them).
    public var weekdays: Set<Int>
    /// The last local date it runs.
    public var until: LocalDate
    /// What each occurrence is booked from.
    public var template: SeriesTemplate
    /// When the series was booked.
    public var createdAt: Date

    /// A series as stored.
    public init(id: UUID, netID: NetID, weekdays: Set<Int>, until: LocalDate, template: SeriesTemplate, createdAt: Date) {
        self.id = id
        self.netID = netID
        self.weekdays = weekdays
        self.until = until
        self.template = template
        self.createdAt = createdAt
    }

    /// The local dates of the pattern from `from` through `through` (and no later than ``until``), in order.
    public func dates(from: LocalDate, through: LocalDate) -> [LocalDate] {
        let last = min(through, until)
        guard from <= last else { return [] }
        return (from.dayNumber...last.dayNumber).map(LocalDate.init(dayNumber:)).filter { weekdays.contains($0.weekday) }
    }

    /// "Mon, Wed" — the weekdays in words, Sunday first.
    public var weekdayNames: String {
        weekdays.sorted().map { Self.shortNames[$0 - 1] }.joined(separator: ", ")
    }

    /// `mon` … `sun` for the API, Sunday first.
    public var weekdayCodes: [String] {
        weekdays.sorted().map { Self.shortNames[$0 - 1].lowercased() }
    }

    private static let shortNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
}

/// What every occurrence of a series is booked from.
public struct SeriesTemplate: Sendable, Hashable {
    /// Where to pick up.
    public var pickup: RideEndpoint
    /// Where to drop off.
    public var dropoff: RideEndpoint
    /// The local time asked each day: the pickup, or the arrival for ``RidePromise/Kind/arriveBy``.
    public var time: LocalTime
    /// Picked up at ``time``, or arriving by it.
    public var promise: RidePromise.Kind
    /// Needs a wheelchair position.
    public var needsWheelchair: Bool
    /// Companions riding along.
    public var companions: Int
    /// A note for the driver.
    public var note: String?

    /// A template.
    public init(
        pickup: RideEndpoint, dropoff: RideEndpoint, time: LocalTime, promise: RidePromise.Kind = .pickup, needsWheelchair: Bool = false,
        companions: Int = 0, note: String? = nil
    ) {
        self.pickup = pickup
        self.dropoff = dropoff
        self.time = time
        self.promise = promise
        self.needsWheelchair = needsWheelchair
        self.companions = companions
        self.note = note
    }

    /// The instant asked on `day` in `timeZone` (3 PM stays 3 PM across a daylight-saving change).
    public func asked(on day: LocalDate, in timeZone: TimeZone) -> Date {
        Self.instant(day, time, in: timeZone)
    }

    /// `time` on `day` in `timeZone`; a wall-clock time a spring-forward skips is read an hour on.
    public static func instant(_ day: LocalDate, _ time: LocalTime, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute)
        return calendar.date(from: components) ?? day.interval(in: timeZone).start.addingTimeInterval(TimeInterval(time.minutesSinceMidnight * 60))
    }
}

/// A date range a series is held for ("home from Dec 20 to Jan 5"), and whether it was resumed early.
public struct SeriesHold: Sendable, Hashable {
    /// The hold's number.
    public var id: Int64
    /// The first held date.
    public var from: LocalDate
    /// The last held date.
    public var to: LocalDate
    /// When the hold was made.
    public var createdAt: Date
    /// Who made it (the rider's net ID, or a dispatcher).
    public var createdBy: String
    /// When it was resumed early, if it was.
    public var resumedAt: Date?

    /// A hold as stored.
    public init(id: Int64, from: LocalDate, to: LocalDate, createdAt: Date, createdBy: String, resumedAt: Date? = nil) {
        self.id = id
        self.from = from
        self.to = to
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.resumedAt = resumedAt
    }

    /// Whether it still holds dates on or after `today` (not resumed, not over).
    public func isOpen(today: LocalDate) -> Bool { resumedAt == nil && to >= today }

    /// "held: Dec 20 to Jan 5" — the reason written on each ride it cancels.
    public static func reason(from: LocalDate, to: LocalDate) -> String {
        "held: \(words(from)) to \(words(to))"
    }

    /// "Dec 20" (with the year when it is not `from`'s).
    public static func words(_ day: LocalDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(months[day.month - 1]) \(day.day)"
    }
}
