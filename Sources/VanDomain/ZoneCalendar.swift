import Foundation

/// Converts between instants and local wall-clock days and minutes in one time zone.
///
/// Days are numbered from 1970-01-01 on the local calendar, so stepping a day is integer
/// arithmetic and never lands on a missing or doubled hour. Turning a wall time back
/// into an instant is defined for every input, including the DST edges:
/// - a time skipped by spring-forward (02:30) becomes the instant the clocks jump (03:00);
/// - a time that happens twice at fall-back (01:30) becomes its first occurrence.
/// Both are "the earliest instant whose wall clock reads at least this time".
public struct ZoneCalendar: Sendable {
    /// The zone whose wall clock this reads.
    public let timeZone: TimeZone

    /// A wall clock for `timeZone`.
    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    private static let secondsPerDay: Int64 = 86_400

    /// The local day number containing `date`.
    public func day(containing date: Date) -> Int {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return Int((local / Double(Self.secondsPerDay)).rounded(.down))
    }

    /// The weekday of a local day number: 1 = Sunday … 7 = Saturday.
    public static func weekday(ofDay day: Int) -> Int {
        // 1970-01-01 was a Thursday (5).
        ((day + 4) % 7 + 7) % 7 + 1
    }

    /// The instant the wall clock reads `minute` minutes after the start of local `day`.
    public func instant(day: Int, minute: Int) -> Date {
        let wall = Int64(day) * Self.secondsPerDay + Int64(minute) * 60
        // Offsets in force a day either side bracket any transition near `wall`.
        let before = offset(at: wall - Self.secondsPerDay)
        let after = offset(at: wall + Self.secondsPerDay)
        let candidates = [wall - before, wall - after].filter { offset(at: $0) == wall - $0 }
        if let earliest = candidates.min() {
            return Date(timeIntervalSince1970: Double(earliest))
        }
        // In a spring-forward gap: find the transition, when `after` comes into force.
        var low = wall - after  // still on the old offset
        var high = wall - before  // already on the new offset
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if offset(at: mid) == after { high = mid } else { low = mid }
        }
        return Date(timeIntervalSince1970: Double(high))
    }

    private func offset(at seconds: Int64) -> Int64 {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }
}
