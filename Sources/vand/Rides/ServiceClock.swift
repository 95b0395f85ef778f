import Foundation
import VanDomain

/// Times on the wire: ISO 8601 with the service zone's offset ("2026-11-23T15:00:00-05:00"),
/// and a local time without offset read in the service zone.
struct ServiceClock: Sendable {
    let timeZone: TimeZone

    /// `2026-11-23T15:00:00-05:00`.
    func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Reads `2026-11-23T15:00:00-05:00`, `…Z`, with fractional seconds, or a local
    /// `2026-11-23T15:00[:00]` (or with a space) in the service zone.
    func parse(_ text: String, field: String) throws(ValidationError) -> Date {
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
