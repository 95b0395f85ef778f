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
    ///
    /// A clock time ("3:05 PM", on every stop of every staff page) is plain arithmetic on the
    /// zone's offset, the same text as the formatter's; the other words use a formatter kept per
    /// thread. Creating a `DateFormatter` costs about 80 µs (ICU builds its symbols), and a
    /// formatter per call was half of the CPU time of the staff pages on a 10,000-ride day.
    public func text(_ date: Date, _ words: Words) -> String {
        if words == .clockTime { return clockTime(date) }
        return Self.threadFormatter(words, timeZone).string(from: date)
    }

    /// "3:05 PM", "12:00 AM": ``Words/clockTime`` by hand.
    func clockTime(_ date: Date) -> String {
        let seconds = Int(floor(date.timeIntervalSince1970)) + timeZone.secondsFromGMT(for: date)
        let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let hour = secondOfDay / 3_600, minute = secondOfDay / 60 % 60
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(hour < 12 ? "AM" : "PM")"
    }

    /// The formatter for `words` in `zone` of the calling thread, made once per thread (a
    /// `DateFormatter` is not Sendable: it never leaves the thread that made it).
    static func threadFormatter(_ words: Words, _ zone: TimeZone) -> DateFormatter {
        let key = "vand.ServiceTime.\(words.rawValue).\(zone.identifier)"
        let dictionary = Thread.current.threadDictionary
        if let formatter = dictionary[key] as? DateFormatter { return formatter }
        let formatter = formatter(words, zone)
        dictionary[key] = formatter
        return formatter
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
