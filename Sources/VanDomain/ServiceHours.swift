import Foundation

/// When the van runs: weekly wall-clock windows in one IANA time zone.
///
/// Windows are local times, so "18:00" stays 18:00 across daylight-saving changes and a
/// window spanning the change night is an hour shorter or longer in absolute time.
/// Overlapping or touching windows count as one continuous stretch of service.
public struct ServiceHours: Sendable, Hashable, Codable {
    /// The zone the windows are written in, e.g. `America/New_York`.
    public var timeZone: TimeZone
    /// The weekly windows, in any order; may overlap.
    public var windows: [ServiceWindow]

    /// Creates service hours from windows in `timeZone`.
    public init(timeZone: TimeZone, windows: [ServiceWindow]) {
        self.timeZone = timeZone
        self.windows = windows
    }

    /// The Yale Special Services Van's hours from the Wheels paper: around the clock
    /// Monday–Friday, and 6:00 PM to 7:30 AM on weekends.
    ///
    /// So Friday runs on until Saturday 07:30, Saturday 07:30–18:00 and Sunday
    /// 07:30–18:00 are closed, and Sunday 18:00 runs into Monday.
    public static func wheelsDefault(timeZone: TimeZone) -> ServiceHours {
        let midnight = LocalTime.midnight
        let morning = LocalTime(checkedHour: 7, minute: 30)
        let evening = LocalTime(checkedHour: 18, minute: 0)
        var windows = (2...6).map { ServiceWindow(checkedWeekday: $0, start: midnight, end: .endOfDay) }
        windows.append(ServiceWindow(checkedWeekday: 7, start: midnight, end: morning))  // Friday night's tail
        windows.append(ServiceWindow(checkedWeekday: 7, start: evening, end: morning))  // Saturday night
        windows.append(ServiceWindow(checkedWeekday: 1, start: evening, end: morning))  // Sunday night
        return ServiceHours(timeZone: timeZone, windows: windows)
    }

    /// Whether the van is in service at `date`.
    public func isOpen(at date: Date) -> Bool {
        let day = clock.day(containing: date)
        return stretches(days: (day - 1)...(day + 1)).contains { $0.start <= date && date < $0.end }
    }

    /// `date` itself if service is open then, else the next instant it opens;
    /// `nil` when there are no windows.
    public func nextOpening(after date: Date) -> Date? {
        guard !windows.isEmpty else { return nil }
        let day = clock.day(containing: date)
        // A week and a day always holds an opening; later weeks only matter when a
        // window falls wholly inside a skipped DST hour.
        for week in 0..<53 {
            let first = day - 1 + 7 * week
            let spans = stretches(days: first...(first + 8))
            if week == 0, spans.contains(where: { $0.start <= date && date < $0.end }) { return date }
            if let next = spans.first(where: { $0.start > date }) { return next.start }
        }
        return nil
    }

    /// When the current stretch of service ends, or if closed at `date`, when the next one ends;
    /// `nil` when there are no windows or service never stops (open around the clock).
    public func nextClosing(after date: Date) -> Date? {
        guard !windows.isEmpty else { return nil }
        let day = clock.day(containing: date)
        let spans = stretches(days: (day - 1)...(day + 22))
        guard let stretch = spans.first(where: { $0.end > date }) else { return nil }
        // A weekly schedule open for more than a week without a break never closes.
        return stretch.duration > 8 * 86_400 ? nil : stretch.end
    }

    /// The stretches of service between `start` and `end`, merged and clipped to that range,
    /// in order. Empty when `end <= start`.
    public func openIntervals(from start: Date, to end: Date) -> [DateInterval] {
        guard start < end, !windows.isEmpty else { return [] }
        let days = (clock.day(containing: start) - 1)...clock.day(containing: end)
        return stretches(days: days).compactMap { stretch in
            let clipped = (max(stretch.start, start), min(stretch.end, end))
            return clipped.0 < clipped.1 ? DateInterval(start: clipped.0, end: clipped.1) : nil
        }
    }

    private var clock: ZoneCalendar { ZoneCalendar(timeZone: timeZone) }

    /// The windows that start on `days`, as absolute intervals, sorted and merged.
    private func stretches(days: ClosedRange<Int>) -> [DateInterval] {
        let clock = self.clock
        var intervals: [DateInterval] = []
        for day in days {
            let weekday = ZoneCalendar.weekday(ofDay: day)
            for window in windows where window.weekday == weekday {
                let startMinute = window.start.minutesSinceMidnight
                let endMinute = window.endMinutesFromStartDay
                let from = clock.instant(day: day, minute: startMinute)
                let to = clock.instant(day: day + endMinute / 1440, minute: endMinute % 1440)
                // A window lying wholly in a skipped hour has no real instants.
                if from < to { intervals.append(DateInterval(start: from, end: to)) }
            }
        }
        intervals.sort { $0.start < $1.start }
        var merged: [DateInterval] = []
        for interval in intervals {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1] = DateInterval(start: last.start, end: max(last.end, interval.end))
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    private enum CodingKeys: String, CodingKey {
        case timeZone, windows
    }

    /// Decodes `{"timeZone": "America/New_York", "windows": [...]}`, rejecting unknown zones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let identifier = try container.decode(String.self, forKey: .timeZone)
        guard let zone = TimeZone(identifier: identifier) else {
            throw ValidationError(
                field: "time_zone",
                reason: "\"\(identifier)\" is not a known IANA time zone; use a name like \"America/New_York\""
            )
        }
        self.init(timeZone: zone, windows: try container.decode([ServiceWindow].self, forKey: .windows))
    }

    /// Encodes the zone as its IANA identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeZone.identifier, forKey: .timeZone)
        try container.encode(windows, forKey: .windows)
    }
}
