import Foundation

extension ServiceWindow {
    /// Short English weekday names, index 0 = Sunday (weekday 1).
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Parses a dispatcher's spec such as `Mon-Fri 00:00-24:00`, `Sat,Sun 18:00-07:30`
    /// or `Sat 00:00-07:30` into one window per weekday. An end at or before the start
    /// crosses midnight.
    public static func parse(spec: String) throws(ValidationError) -> [ServiceWindow] {
        let parts = spec.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw ValidationError(field: "hours", reason: "'\(spec)' should look like 'Mon-Fri 08:00-18:00'")
        }
        let times = parts[1].split(separator: "-")
        guard times.count == 2 else {
            throw ValidationError(field: "hours", reason: "'\(parts[1])' should be two times like 08:00-18:00")
        }
        let start = try LocalTime(String(times[0]), field: "hours")
        let end = try LocalTime(String(times[1]), field: "hours")
        var days: [Int] = []
        for group in parts[0].split(separator: ",") {
            let range = group.split(separator: "-")
            guard (1...2).contains(range.count) else { throw ValidationError(field: "hours", reason: "'\(group)' is not a day or day range") }
            let first = try weekday(String(range[0]))
            let last = try weekday(String(range.last!))
            var day = first
            while true {
                if !days.contains(day) { days.append(day) }
                if day == last { break }
                day = day % 7 + 1
            }
        }
        return try days.map { day throws(ValidationError) in try ServiceWindow(weekday: day, start: start, end: end) }
    }

    /// `Mon 18:00-07:30`.
    public var spec: String { "\(Self.weekdayNames[weekday - 1]) \(start)-\(end)" }

    private static func weekday(_ name: String) throws(ValidationError) -> Int {
        guard let index = weekdayNames.firstIndex(where: { $0.lowercased() == name.prefix(3).lowercased() }), name.count >= 3 else {
            throw ValidationError(field: "hours", reason: "'\(name)' is not a weekday (Sun, Mon, Tue, Wed, Thu, Fri, Sat)")
        }
        return index + 1
    }
}
