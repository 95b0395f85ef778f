import Foundation

/// A wall-clock time of day in the service's time zone, e.g. `18:00`, with no date.
///
/// Valid from `00:00` to `23:59`, plus `24:00` (`endOfDay`) to end a window at midnight.
/// Encodes as a `"HH:MM"` string; decoding validates.
public struct LocalTime: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// 0...23, or 24 for `endOfDay`.
    public let hour: Int
    /// 0...59; always 0 when `hour` is 24.
    public let minute: Int

    /// `00:00`, the start of a day.
    public static let midnight = LocalTime(checkedHour: 0, minute: 0)
    /// `24:00`, the end of a day; only meaningful as the end of a `ServiceWindow`.
    public static let endOfDay = LocalTime(checkedHour: 24, minute: 0)

    /// Creates a time after checking `hour` is 0..<24 and `minute` 0..<60 (or the time is 24:00).
    /// - Throws: `ValidationError` for `field` (default `"time"`).
    public init(hour: Int, minute: Int = 0, field: String = "time") throws(ValidationError) {
        if hour == 24 && minute == 0 {
            self.init(checkedHour: hour, minute: minute)
            return
        }
        guard (0..<24).contains(hour) else {
            throw ValidationError(field: field, reason: "hour must be 0 to 23 (or 24:00 for end of day), got \(hour)")
        }
        guard (0..<60).contains(minute) else {
            throw ValidationError(field: field, reason: "minute must be 0 to 59, got \(minute)")
        }
        self.init(checkedHour: hour, minute: minute)
    }

    /// Parses `"H:MM"` or `"HH:MM"` in 24-hour form, e.g. `"7:30"`, `"18:00"`, `"24:00"`.
    /// - Throws: `ValidationError` for `field` (default `"time"`) when the text is not such a time.
    public init(_ text: String, field: String = "time") throws(ValidationError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        let expected = "use 24-hour \"HH:MM\", e.g. \"07:30\" or \"18:00\""
        guard parts.count == 2,
            (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else {
            throw ValidationError(field: field, reason: "\"\(trimmed)\" is not a time of day; \(expected)")
        }
        try self.init(hour: hour, minute: minute, field: field)
    }

    init(checkedHour hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Minutes from the start of the day: `07:30` is 450, `24:00` is 1440.
    public var minutesSinceMidnight: Int { hour * 60 + minute }

    /// Whether this is `24:00`.
    public var isEndOfDay: Bool { hour == 24 }

    /// Zero-padded `"HH:MM"`, e.g. `"07:30"`.
    public var description: String {
        let h = hour < 10 ? "0\(hour)" : "\(hour)"
        let m = minute < 10 ? "0\(minute)" : "\(minute)"
        return "\(h):\(m)"
    }

    /// Orders times within a day; `24:00` is last.
    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }

}

extension LocalTime: ValidatedString {
    /// The HH:MM as text (its JSON and SQL form).
    public var rawValue: String { description }

    /// Parses `text` as ``init(_:field:)`` does.
    public init(validating text: String) throws(ValidationError) { try self.init(text) }
}
