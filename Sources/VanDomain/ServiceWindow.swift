import Foundation

/// One weekly stretch of service in local wall-clock time, e.g. Saturday 18:00 → Sunday 07:30.
///
/// The window starts on `weekday` at `start`. If `end` is at or before `start` it ends on
/// the following day, so `18:00–07:30` runs overnight and `18:00–18:00` lasts a full day;
/// `00:00–24:00` is the whole of `weekday`.
public struct ServiceWindow: Hashable, Sendable, Codable {
    /// The day the window starts: 1 = Sunday … 7 = Saturday (`Calendar`'s convention).
    public let weekday: Int
    /// When service starts on `weekday`; never `24:00`.
    public let start: LocalTime
    /// When service ends: on `weekday` if after `start`, else on the next day.
    public let end: LocalTime

    /// Creates a window after checking the weekday and that it does not start at `24:00`.
    /// - Throws: `ValidationError` with field `"weekday"` or `"start"`.
    public init(weekday: Int, start: LocalTime, end: LocalTime) throws(ValidationError) {
        guard (1...7).contains(weekday) else {
            throw ValidationError(field: "weekday", reason: "must be 1 (Sunday) to 7 (Saturday), got \(weekday)")
        }
        guard !start.isEndOfDay else {
            throw ValidationError(field: "start", reason: "cannot be 24:00; start the window at 00:00 on the next day")
        }
        self.init(checkedWeekday: weekday, start: start, end: end)
    }

    /// Parses `start` and `end` as `"HH:MM"`, e.g. `ServiceWindow(weekday: 7, start: "18:00", end: "07:30")`.
    /// - Throws: `ValidationError` with field `"weekday"`, `"start"` or `"end"`.
    public init(weekday: Int, start: String, end: String) throws(ValidationError) {
        try self.init(weekday: weekday, start: LocalTime(start, field: "start"), end: LocalTime(end, field: "end"))
    }

    init(checkedWeekday weekday: Int, start: LocalTime, end: LocalTime) {
        self.weekday = weekday
        self.start = start
        self.end = end
    }

    /// Whether the window ends on the day after `weekday` (its end is at or before its start).
    public var crossesMidnight: Bool { end <= start }

    /// Length on the wall clock in minutes (DST can make the real length differ by the shift).
    public var wallClockMinutes: Int { endMinutesFromStartDay - start.minutesSinceMidnight }

    /// Minutes from the start of `weekday` to `end`, past 1440 when the window crosses midnight.
    var endMinutesFromStartDay: Int {
        crossesMidnight ? end.minutesSinceMidnight + 24 * 60 : end.minutesSinceMidnight
    }

    private enum CodingKeys: String, CodingKey {
        case weekday, start, end
    }

    /// Decodes and validates like `init(weekday:start:end:)`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            weekday: container.decode(Int.self, forKey: .weekday),
            start: container.decode(String.self, forKey: .start),
            end: container.decode(String.self, forKey: .end)
        )
    }
}
