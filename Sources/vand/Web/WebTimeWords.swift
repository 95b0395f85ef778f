import Foundation

/// Times as a rider reads them (and a screen reader speaks them): "3:00 PM today",
/// "9:15 AM tomorrow", "3:00 PM on Monday, November 30" — never an ISO string.
struct WebTimeWords: Sendable {
    let timeZone: TimeZone

    /// "3:00 PM".
    func time(_ date: Date) -> String { formatter("h:mm a").string(from: date) }

    /// "today", "tomorrow", "yesterday" or "on Monday, November 30".
    func day(_ date: Date, now: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)).day ?? 0
        switch days {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        default: return "on " + formatter("EEEE, MMMM d").string(from: date)
        }
    }

    /// "3:00 PM today".
    func words(_ date: Date, now: Date) -> String { "\(time(date)) \(day(date, now: now))" }

    /// "Monday, November 30" (a date alone, for headings and hours).
    func date(_ date: Date) -> String { formatter("EEEE, MMMM d").string(from: date) }

    /// The local date and time a form's date and time inputs take: ("2026-11-30", "15:00").
    func formFields(_ date: Date) -> (date: String, time: String) {
        (formatter("yyyy-MM-dd").string(from: date), formatter("HH:mm").string(from: date))
    }

    private func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        return formatter
    }
}
