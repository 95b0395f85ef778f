import Foundation
import VanDomain
import VanServices

/// The booking settings `vand` reads from its environment.
struct BookingSettings: Sendable {
    /// Horizon, service area, on-demand lead, late cancellation.
    var policy = BookingPolicy(serviceCenter: BookingPolicy.yaleCenter)
    /// New rides are approved at once instead of waiting for the dispatcher.
    var autoApprove = false
    /// Where riders find the office's forms, if configured.
    var formsURL: String?

    static let helpText = """
          VAND_AUTO_APPROVE   true: bookings are approved at once (default false: dispatcher approves).
          VAND_BOOKING_HORIZON_DAYS  How far ahead riders may book (default 14).
          VAND_SERVICE_CENTER Campus centre as lat,lon (default 41.3111,-72.9267, Yale).
          VAND_SERVICE_RADIUS_KM  Pickups and drop-offs within this distance (default 8).
          VAND_LATE_CANCEL_MINUTES  A cancellation this close to pickup is late (default 60).
          VAND_ON_DEMAND_MINUTES  On-demand pickup this long after the request (default 5).
          VAND_FORMS_URL      Link to the office's forms, shown by GET /v1/service.
        """

    static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> BookingSettings {
        var settings = BookingSettings()
        func number(_ name: String, _ range: ClosedRange<Double>) throws(SettingError) -> Double? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Double(text), range.contains(value) else {
                throw SettingError(variable: name, value: text, expected: "a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        if let text = environment["VAND_AUTO_APPROVE"], !text.isEmpty {
            switch text.lowercased() {
            case "1", "true", "yes", "on": settings.autoApprove = true
            case "0", "false", "no", "off": settings.autoApprove = false
            default: throw SettingError(variable: "VAND_AUTO_APPROVE", value: text, expected: "true or false")
            }
        }
        if let days = try number("VAND_BOOKING_HORIZON_DAYS", 1...365) { settings.policy.horizon = days * 86_400 }
        if let km = try number("VAND_SERVICE_RADIUS_KM", 0.1...200) { settings.policy.serviceRadius = km * 1_000 }
        if let minutes = try number("VAND_LATE_CANCEL_MINUTES", 0...1_440) { settings.policy.lateCancellation = minutes * 60 }
        if let minutes = try number("VAND_ON_DEMAND_MINUTES", 0...120) { settings.policy.onDemandLead = minutes * 60 }
        if let text = environment["VAND_SERVICE_CENTER"], !text.isEmpty {
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let lat = parts[0], let lon = parts[1], let center = try? Coordinate(latitude: lat, longitude: lon) else {
                throw SettingError(variable: "VAND_SERVICE_CENTER", value: text, expected: "lat,lon such as 41.3111,-72.9267")
            }
            settings.policy.serviceCenter = center
        }
        if let url = environment["VAND_FORMS_URL"], !url.isEmpty {
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw SettingError(variable: "VAND_FORMS_URL", value: url, expected: "an http(s) URL")
            }
            settings.formsURL = url
        }
        return settings
    }
}
