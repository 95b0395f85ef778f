import Foundation

/// A calendar day with no time or zone, e.g. `2026-11-26`; used for closure days.
///
/// Valid for years 1…9999. Encodes as a `"yyyy-MM-dd"` string; decoding validates.
/// `interval(in:)` turns it into the absolute span of that day in the service time zone.
public struct LocalDate: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The year, 1...9999.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...28/29/30/31.
    public let day: Int

    /// Creates a date after checking it exists on the Gregorian calendar.
    /// - Throws: `ValidationError` for `field` (default `"date"`).
    public init(year: Int, month: Int, day: Int, field: String = "date") throws(ValidationError) {
        guard (1...9999).contains(year) else {
            throw ValidationError(field: field, reason: "year must be 1 to 9999, got \(year)")
        }
        guard (1...12).contains(month) else {
            throw ValidationError(field: field, reason: "month must be 1 to 12, got \(month)")
        }
        let length = Self.daysIn(month: month, year: year)
        guard (1...length).contains(day) else {
            throw ValidationError(field: field, reason: "day must be 1 to \(length) in \(year)-\(Self.pad(month)), got \(day)")
        }
        self.init(checkedYear: year, month: month, day: day)
    }

    /// Parses `"yyyy-MM-dd"`, e.g. `"2026-11-26"`.
    /// - Throws: `ValidationError` for `field` (default `"date"`) when the text is not such a date.
    public init(_ text: String, field: String = "date") throws(ValidationError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            throw ValidationError(field: field, reason: "\"\(trimmed)\" is not a date; use \"yyyy-MM-dd\", e.g. \"2026-11-26\"")
        }
        try self.init(year: year, month: month, day: day, field: field)
    }

    /// The local day in `timeZone` that contains `date`.
    public init(containing date: Date, in timeZone: TimeZone) {
        self.init(dayNumber: ZoneCalendar(timeZone: timeZone).day(containing: date))
    }

    /// The absolute span of this day in `timeZone`: local midnight to the next local midnight
    /// (23 or 25 hours on daylight-saving change days).
    public func interval(in timeZone: TimeZone) -> DateInterval {
        let clock = ZoneCalendar(timeZone: timeZone)
        return DateInterval(start: clock.instant(day: dayNumber, minute: 0), end: clock.instant(day: dayNumber + 1, minute: 0))
    }

    /// The weekday: 1 = Sunday … 7 = Saturday (`Calendar`'s convention).
    public var weekday: Int { ZoneCalendar.weekday(ofDay: dayNumber) }

    /// `"yyyy-MM-dd"`.
    public var description: String {
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + Self.pad(month) + "-" + Self.pad(day)
    }

    /// Orders dates chronologically.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    // MARK: Day numbers (days since 1970-01-01, as `ZoneCalendar` counts them)

    init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date with day number `dayNumber` (H. Hinnant's `civil_from_days`).
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(checkedYear: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension LocalDate: ValidatedString {
    /// The yyyy-MM-dd as text (its JSON and SQL form).
    public var rawValue: String { description }

    /// Parses `text` as ``init(_:field:)`` does.
    public init(validating text: String) throws(ValidationError) { try self.init(text) }
}
