import Foundation
import Logging
import VanServices
import VanPostgres

/// Everything `vand` reads from its environment, with defaults that work on a laptop.
struct AppConfiguration: Sendable {
    var host = "127.0.0.1"
    var port = 8080
    var database: DatabaseSettings
    var timeZone = TimeZone(identifier: "America/New_York")!
    var logLevel: Logger.Level = .info
    /// Password, session and temporary-password rules (VAND_BCRYPT_COST, …).
    var accounts = AccountSettings()
    /// The office's phone number, shown to riders who must call (VAND_HOTLINE).
    var hotline: String?
    /// Booking rules: horizon, service area, auto-approve, forms link.
    var booking = BookingSettings()
    /// The trigger loop: reminder lead time and the dispatcher's webhook.
    var events = EventSettings()
    /// The rider web app: where its files are, whether cookies are Secure.
    var web = WebSettings()
    /// Proxies whose X-Forwarded-For names the client (VAND_TRUSTED_PROXIES), for sign-in throttling.
    var trustedProxies = TrustedProxies.none

    /// The settings section of `vand --help`, made from the settings table.
    static let helpText = SettingSpec.helpText()

    /// Reads the environment; the first bad value stops start-up with a line naming it.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingError) -> AppConfiguration {
        var configuration = AppConfiguration(database: try DatabaseSettings.fromEnvironment(environment))
        configuration.host = SettingSpec.host.text(environment) ?? SettingSpec.host.defaultValue!
        configuration.port = try SettingSpec.port.integer(environment)
        configuration.timeZone = try SettingSpec.serviceTimeZone(environment)
        guard let level = Logger.Level(rawValue: try SettingSpec.logLevel.choice(environment)) else { throw SettingSpec.logLevel.error(nil) }
        configuration.logLevel = level
        if let text = SettingSpec.hotline.text(environment) {
            let hotline = text.trimmingCharacters(in: .whitespaces)
            guard (3...40).contains(hotline.count), hotline.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
                throw SettingSpec.hotline.error(text, expected: "a phone number as riders should see it, e.g. 607-555-0100")
            }
            configuration.hotline = hotline
        }
        configuration.accounts = try AccountSettings.fromEnvironment(environment)
        configuration.booking = try BookingSettings.fromEnvironment(environment)
        configuration.events = try EventSettings.fromEnvironment(environment)
        configuration.web = try WebSettings.fromEnvironment(environment)
        configuration.trustedProxies = try TrustedProxies.fromEnvironment(environment)
        return configuration
    }
}
