import Foundation

/// A standing ride: the same local time on some weekdays until a last date
/// ("every Tuesday and Thursday this term").
public struct Recurrence: Hashable, Sendable, Codable {
    /// Weekdays, 1 = Sunday … 7 = Saturday.
    public var weekdays: Set<Int>
    /// The last local date (inclusive).
    public var until: LocalDate

    /// A validated rule; weekdays must be 1…7 and at least one.
    public init(weekdays: Set<Int>, until: LocalDate) throws(ValidationError) {
        guard !weekdays.isEmpty, weekdays.allSatisfy({ (1...7).contains($0) }) else {
            throw ValidationError(field: "repeat.weekdays", reason: "give at least one weekday (mon … sun)")
        }
        self.weekdays = weekdays
        self.until = until
    }

    /// Parses weekday names (`mon`, `Tuesday`, …) into 1…7.
    public static func weekday(named name: String) throws(ValidationError) -> Int {
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        guard name.count >= 3, let index = names.firstIndex(of: String(name.lowercased().prefix(3))) else {
            throw ValidationError(field: "repeat.weekdays", reason: "'\(name)' is not a weekday (mon … sun)")
        }
        return index + 1
    }

    /// The pickup instants: the local wall-clock time of `first` on every chosen weekday
    /// from `first`'s date through `until`, in `timeZone` (so 3 PM stays 3 PM across DST).
    /// At most `limit` occurrences.
    public func occurrences(startingAt first: Date, in timeZone: TimeZone, limit: Int = 200) -> [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let time = calendar.dateComponents([.hour, .minute, .second], from: first)
        var day = calendar.startOfDay(for: first)
        let last = until.interval(in: timeZone).end
        var result: [Date] = []
        while day < last, result.count < limit {
            let weekday = calendar.component(.weekday, from: day)
            if weekdays.contains(weekday),
                let at = calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: time.second ?? 0, of: day),
                at >= first
            {
                result.append(at)
            }
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        return result
    }
}
