import Foundation

/// The API's one date format (it reads no clock; ``TimeSource`` is the clock): ISO 8601 with the service zone's offset ("2026-11-23T15:00:00-05:00"),
/// and a local time without offset read in the service zone.
public struct ServiceTime: Sendable, Hashable {
    /// The service time zone.
    public let timeZone: TimeZone
    /// The zone's offsets, remembered per hour (shared by copies; not part of equality).
    private let offsets: ZoneOffsets

    /// A clock for the service zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        self.offsets = ZoneOffsets(timeZone)
    }

    public static func == (lhs: ServiceTime, rhs: ServiceTime) -> Bool { lhs.timeZone == rhs.timeZone }

    public func hash(into hasher: inout Hasher) { hasher.combine(timeZone) }

    /// `2026-11-23T15:00:00-05:00`.
    ///
    /// Plain arithmetic: the same text as `ISO8601DateFormatter` with `.withInternetDateTime`
    /// (milliseconds rounded, then seconds truncated; `Z` at offset zero), about 100 times
    /// faster than creating that formatter — which took ~80 µs per call and was most of the
    /// CPU time of `GET /v1/rides` (four times per ride). The zone's offset is remembered per
    /// hour (``ZoneOffsets``), not asked of ICU each time.
    public func format(_ date: Date) -> String {
        let offset = offsets.secondsFromGMT(for: date)
        let seconds = Int(floor((date.timeIntervalSince1970 * 1_000).rounded() / 1_000)) + offset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let civil = LocalDate(dayNumber: days)
        guard (1...9999).contains(civil.year) else { return Self.interpolated(civil, secondOfDay: secondOfDay, offset: offset) }
        // Written digit by digit into one allocation (string interpolation of two-digit pieces
        // made a dozen small strings per call; a ride list formats four times per ride).
        return String(unsafeUninitializedCapacity: 25) { out in
            var at = 0
            func put(_ byte: UInt8) { out[at] = byte; at += 1 }
            func digits(_ number: Int, _ count: Int) {
                var divisor = 1
                for _ in 1..<count { divisor *= 10 }
                var rest = number
                while divisor > 0 { put(UInt8(48 + rest / divisor)); rest %= divisor; divisor /= 10 }
            }
            digits(civil.year, 4); put(45); digits(civil.month, 2); put(45); digits(civil.day, 2); put(84)
            digits(secondOfDay / 3_600, 2); put(58); digits(secondOfDay / 60 % 60, 2); put(58); digits(secondOfDay % 60, 2)
            if offset == 0 {
                put(90)
            } else {
                let minutes = abs(offset) / 60
                put(offset < 0 ? 45 : 43); digits(minutes / 60, 2); put(58); digits(minutes % 60, 2)
            }
            return at
        }
    }

    /// ``format(_:)`` for a year outside 1…9999, which its fixed-width path does not hold.
    private static func interpolated(_ civil: LocalDate, secondOfDay: Int, offset: Int) -> String {
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        var text =
            "\(civil.year)-\(two(civil.month))-\(two(civil.day))T\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        if offset == 0 {
            text += "Z"
        } else {
            let minutes = abs(offset) / 60
            text += (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
        }
        return text
    }

    /// Reads `2026-11-23T15:00:00-05:00`, `…Z`, with fractional seconds, or a local
    /// `2026-11-23T15:00[:00]` (or with a space) in the service zone.
    ///
    /// The usual shapes are read by arithmetic (``parseFast(_:)``); anything else — fractional
    /// seconds, a local time near a daylight-saving change, odd but valid text — goes to the
    /// Foundation formatters, whose answer is the reference (three formatters cost ~250 µs).
    public func parse(_ text: String, field: String) throws(ValidationError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = parseFast(trimmed) { return date }
        if let date = parseWithFormatters(trimmed) { return date }
        throw ValidationError(
            field: field, reason: "'\(trimmed.prefix(40))' is not a time; use 2026-11-23T15:00 (service time) or ISO 8601 with an offset")
    }

    /// `YYYY-MM-DDTHH:MM:SS` with `Z` or `±HH:MM`, or a local `YYYY-MM-DD[T ]HH:MM[:SS]`, read
    /// without a formatter; nil for any other text and for a local time within three hours of
    /// an offset change (ambiguous or skipped times go to the formatter).
    func parseFast(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<(from + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 16, bytes[4] == 45, bytes[7] == 45, bytes[13] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2),
            year >= 1900, (1...12).contains(month), hour < 24, minute < 60
        else { return nil }
        guard (1...LocalDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        var index = 16
        var second = 0
        if index < bytes.count, bytes[index] == 58 {
            guard let value = number(index + 1, 2), value < 60 else { return nil }
            second = value
            index += 3
        }
        let local = LocalDate(checkedYear: year, month: month, day: day).dayNumber * 86_400 + hour * 3_600 + minute * 60 + second
        if index == bytes.count {
            guard bytes[10] == 84 || bytes[10] == 32 else { return nil }  // 'T' or ' '
            // In the service zone: the offset must be the same three hours either side.
            let offset = timeZone.secondsFromGMT(
                for: Date(timeIntervalSince1970: TimeInterval(local - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local)))))
            )
            let instant = local - offset
            for probe in [instant - 10_800, instant, instant + 10_800]
            where timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(probe))) != offset {
                return nil
            }
            return Date(timeIntervalSince1970: TimeInterval(instant))
        }
        // An instant: seconds and a zone designator are required, after a 'T'.
        guard bytes[10] == 84, index == 19 else { return nil }
        if index + 1 == bytes.count, bytes[index] == 90 {  // 'Z'
            return Date(timeIntervalSince1970: TimeInterval(local))
        }
        guard index + 6 == bytes.count, bytes[index] == 43 || bytes[index] == 45, bytes[index + 3] == 58,
            let offsetHours = number(index + 1, 2), let offsetMinutes = number(index + 4, 2),
            offsetHours <= 14, offsetMinutes < 60
        else { return nil }
        let offset = (offsetHours * 3_600 + offsetMinutes * 60) * (bytes[index] == 45 ? -1 : 1)
        return Date(timeIntervalSince1970: TimeInterval(local - offset))
    }

    /// The reference reading with Foundation's formatters (slow: they are built per call).
    func parseWithFormatters(_ trimmed: String) -> Date? {
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: trimmed) { return date }
        }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            local.dateFormat = format
            if let date = local.date(from: trimmed) { return date }
        }
        return nil
    }
}

extension ServiceTime {
    /// `Mon Nov 23, 3:00 PM` for tables people read.
    public func display(_ date: Date, withDay: Bool = true) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = withDay ? "EEE MMM d, h:mm a" : "h:mm a"
        return formatter.string(from: date)
    }

    /// Reads a time as ``parse(_:field:)`` does, or a bare `15:30` / `3:30 PM` on the local date of `sameDayAs`.
    public func parse(_ text: String, field: String, sameDayAs reference: Date) throws(ValidationError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        local.dateFormat = "yyyy-MM-dd"
        let day = local.string(from: reference)
        for format in ["HH:mm", "h:mm a", "h:mma"] {
            local.dateFormat = "yyyy-MM-dd " + format
            if let date = local.date(from: day + " " + trimmed) { return date }
        }
        return try parse(trimmed, field: field)
    }
}
