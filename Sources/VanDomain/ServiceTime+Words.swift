import Foundation

extension ServiceTime {
    /// How a time is written for a person (all in the service zone, English, 12-hour clock
    /// for riders): the one place the rider messages, the scheduler's sentences and the
    /// dispatcher's tables take their formats from.
    public enum Words: String, Sendable, CaseIterable {
        /// "3:00 PM".
        case clockTime = "h:mm a"
        /// "Monday".
        case weekday = "EEEE"
        /// "Monday, November 30".
        case weekdayAndDate = "EEEE, MMMM d"
        /// "Mon Nov 30 at 3:00 PM".
        case dayAtTime = "EEE MMM d 'at' h:mm a"
        /// "Mon Nov 30, 3:00 PM".
        case shortDayAndTime = "EEE MMM d, h:mm a"
        /// "2026-11-28 14:05 EST", for the dispatcher's records.
        case record = "yyyy-MM-dd HH:mm zzz"
        /// "14:05:07", for the live event feed.
        case seconds = "HH:mm:ss"
        /// "2026-11-30", the value of a form's date input.
        case formDate = "yyyy-MM-dd"
        /// "15:00", the value of a form's time input.
        case formTime = "HH:mm"
    }

    /// `date` written as `words` in the service zone.
    public func text(_ date: Date, _ words: Words) -> String {
        Self.formatter(words, timeZone).string(from: date)
    }

    /// A formatter for `words` in `zone` (DateFormatter is not Sendable, so one per use).
    public static func formatter(_ words: Words, _ zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.dateFormat = words.rawValue
        return formatter
    }
}
