import Foundation

/// Times for people and on the wire: ISO 8601 with the service zone's offset ("2026-11-23T15:00:00-05:00"),
/// and a local time without offset read in the service zone.
public struct ServiceClock: Sendable, Hashable {
    /// The service time zone.
    public let timeZone: TimeZone

    /// A clock for the service zone.
    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// `2026-11-23T15:00:00-05:00`.
    public func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Reads `2026-11-23T15:00:00-05:00`, `…Z`, with fractional seconds, or a local
    /// `2026-11-23T15:00[:00]` (or with a space) in the service zone.
    public func parse(_ text: String, field: String) throws(ValidationError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
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
        throw ValidationError(field: field, reason: "'\(trimmed.prefix(40))' is not a time; use 2026-11-23T15:00 (service time) or ISO 8601 with an offset")
    }
}

extension ServiceClock {
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
