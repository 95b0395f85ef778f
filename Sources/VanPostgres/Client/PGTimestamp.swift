import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Text form of `timestamptz` values. Every connection runs with `TimeZone=UTC` and
/// `DateStyle=ISO`, so the server sends `2026-11-21 09:07:50.123456+00`; we send the same.
public enum PGTimestamp {
    /// Formats a date with microsecond precision in UTC.
    public static func format(_ date: Date) -> String {
        let totalMicros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        var seconds = Int(floor(totalMicros / 1_000_000))
        var micros = Int(totalMicros - Double(seconds) * 1_000_000)
        if micros < 0 { micros += 1_000_000; seconds -= 1 }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2)) "
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(micros, 6))+00"
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`; nil for anything else (BC dates, infinity).
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// ``parse(_:)`` over the text's UTF-8 bytes, read in place (every ride read decodes six
    /// timestamps per row: no array, no `timegm` for a valid date).
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if let date = parseServerForm(bytes) { return date }
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
                index += 1
            }
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == c else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: " ")) || expect(UInt8(ascii: "T")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2)
        else { return nil }
        var micros = 0
        if expect(UInt8(ascii: ".")) {
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 6 { micros = micros * 10 + Int(bytes[index] - 48); digits += 1 }
                index += 1
            }
            while digits < 6 { micros *= 10; digits += 1 }
        }
        var offset = 0
        if index < bytes.count {
            let sign: Int
            if expect(UInt8(ascii: "+")) {
                sign = 1
            } else if expect(UInt8(ascii: "-")) {
                sign = -1
            } else if expect(UInt8(ascii: "Z")) {
                sign = 0
            } else {
                return nil
            }
            if sign != 0 {
                guard let hours = number(2) else { return nil }
                var total = hours * 3600
                if expect(UInt8(ascii: ":")) { guard let minutes = number(2) else { return nil }; total += minutes * 60 }
                if expect(UInt8(ascii: ":")) { guard let secs = number(2) else { return nil }; total += secs }
                offset = sign * total
            }
        }
        guard index == bytes.count else { return nil }
        let epoch: Int
        if (1...12).contains(month), day >= 1, day <= daysIn(month, of: year), hour < 24, minute < 60, second < 60 {
            epoch = (daysSince1970(year: year, month: month, day: day) * 24 + hour) * 3600 + minute * 60 + second
        } else {
            // Out of range fields: timegm normalises them.
            var parts = tm()
            parts.tm_year = Int32(year - 1900)
            parts.tm_mon = Int32(month - 1)
            parts.tm_mday = Int32(day)
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = Int32(second)
            epoch = Int(timegm(&parts))
        }
        return Date(timeIntervalSince1970: Double(epoch - offset) + Double(micros) / 1_000_000)
    }

    /// What the server sends (`YYYY-MM-DD HH:MM:SS[.f…]+00`), read at fixed positions; nil for
    /// anything else, which ``parse(utf8:)`` then reads the general way.
    private static func parseServerForm(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let count = bytes.count
        guard count >= 22, bytes[4] == 45, bytes[7] == 45, bytes[10] == 32, bytes[13] == 58, bytes[16] == 58,
            bytes[count - 3] == 43, bytes[count - 2] == 48, bytes[count - 1] == 48,  // "+00"
            let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2),
            let hour = digits(bytes, 11, 2), let minute = digits(bytes, 14, 2), let second = digits(bytes, 17, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month, of: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var micros = 0
        if count > 22 {
            // ".f" to ".ffffff" between the seconds and the offset.
            let fraction = count - 23
            guard bytes[19] == 46, (1...6).contains(fraction), let value = digits(bytes, 20, fraction) else { return nil }
            micros = value
            for _ in fraction..<6 { micros *= 10 }
        }
        let epoch = (daysSince1970(year: year, month: month, day: day) * 24 + hour) * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(epoch) + Double(micros) / 1_000_000)
    }

    /// The decimal number in `bytes[at..<at + count]`; nil unless all are digits.
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
        var value = 0
        for index in at..<(at + count) {
            let digit = bytes[index] &- 48
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
