import Foundation
import VanDomain

/// The booking settings, read from the environment in this one place: `vand` books the API's
/// and the web's rides by them, and `vanadmin rides book` the office's, so a phone booking is
/// booked exactly as the rider's own (``SettingSpec/autoApprove`` included).
public struct BookingSettings: Sendable {
    /// Horizon, service area, on-demand lead, late cancellation.
    public var policy = BookingPolicy(serviceCenter: BookingPolicy.yaleCenter)
    /// New rides are approved at once instead of waiting for the dispatcher.
    public var autoApprove = false
    /// Seconds a ride may wait for the dispatcher before the console lists it as an alert (VAND_PENDING_ALERT, in minutes).
    public var pendingAlert: TimeInterval = 600
    /// Where riders find the office's forms, if configured.
    public var formsURL: String?

    /// The rules every booking is checked by (``BookingService`` applies them).
    public var rules: BookingRules { BookingRules(policy: policy, autoApprove: autoApprove) }

    /// The defaults (``SettingSpec``'s).
    public init() {}

    /// The settings in `environment`; throws the first that is not valid, naming it.
    public static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> BookingSettings {
        var settings = BookingSettings()
        settings.autoApprove = try SettingSpec.autoApprove.boolean(environment)
        settings.pendingAlert = try SettingSpec.pendingAlert.number(environment) * 60
        settings.policy.horizon = try SettingSpec.bookingHorizonDays.number(environment) * 86_400
        settings.policy.serviceRadius = try SettingSpec.serviceRadiusKm.number(environment) * 1_000
        settings.policy.lateCancellation = try SettingSpec.lateCancelMinutes.number(environment) * 60
        settings.policy.onDemandLead = try SettingSpec.onDemandMinutes.number(environment) * 60
        settings.policy.willCallMaxWait = try SettingSpec.willCallMaxWait.number(environment) * 60
        let center = SettingSpec.serviceCenter.text(environment) ?? SettingSpec.serviceCenter.defaultValue!
        let parts = center.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], let coordinate = try? Coordinate(latitude: lat, longitude: lon) else {
            throw SettingSpec.serviceCenter.error(center, expected: "lat,lon such as 41.3111,-72.9267")
        }
        settings.policy.serviceCenter = coordinate
        if let url = SettingSpec.formsURL.text(environment) {
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else { throw SettingSpec.formsURL.error(url) }
            settings.formsURL = url
        }
        return settings
    }
}
