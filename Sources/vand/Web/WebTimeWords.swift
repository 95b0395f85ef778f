import Foundation
import VanDomain

/// Times as a rider reads them (and a screen reader speaks them): "3:00 PM today",
/// "9:15 AM tomorrow", "3:00 PM on Monday, November 30" — never an ISO string. The formats
/// are ``ServiceTime/Words``; this adds only "today" and "tomorrow".
struct WebTimeWords: Sendable {
    let timeZone: TimeZone

    private var clock: ServiceTime { ServiceTime(timeZone: timeZone) }

    /// "3:00 PM".
    func time(_ date: Date) -> String { clock.text(date, .clockTime) }

    /// "today", "tomorrow", "yesterday" or "on Monday, November 30".
    func day(_ date: Date, now: Date) -> String {
        switch LocalDate(containing: date, in: timeZone).dayNumber - LocalDate(containing: now, in: timeZone).dayNumber {
        case 0: "today"
        case 1: "tomorrow"
        case -1: "yesterday"
        default: "on " + clock.text(date, .weekdayAndDate)
        }
    }

    /// "3:00 PM today".
    func words(_ date: Date, now: Date) -> String { "\(time(date)) \(day(date, now: now))" }

    /// "Monday, November 30" (a date alone, for headings and hours).
    func date(_ date: Date) -> String { clock.text(date, .weekdayAndDate) }

    /// The local date and time a form's date and time inputs take: ("2026-11-30", "15:00").
    func formFields(_ date: Date) -> (date: String, time: String) {
        (clock.text(date, .formDate), clock.text(date, .formTime))
    }
}
