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
    /// Background route improvement after bookings (VAND_IMPROVE_SECONDS).
    var improvement = ImprovementSettings()
    /// The van on the road: the no-show wait, when a position goes stale, the trail's days.
    var road = RoadSettings()
    /// Bytes of riders' ride lists answered from memory until notified of a change (VAND_READ_CACHE_MB; 0: off).
    var readCacheBytes = 16 << 20
    /// The rider web app: where its files are, whether cookies are Secure.
    var web = WebSettings()
    /// Head and keep-alive timeouts and the connection cap (VAND_HEAD_TIMEOUT, VAND_IDLE_TIMEOUT, VAND_MAX_CONNECTIONS).
    var connections = ConnectionSettings()
    /// How long `/readyz` waits for the database before it answers 503: under a probe's own
    /// timeout (usually 2 s), so a slow database reads as not ready rather than as a hung probe.
    var readinessDeadline: Duration = .milliseconds(1500)
    /// Where `/metrics` is served on its own (VAND_METRICS_ADDRESS); nil: on the riders' port.
    var metricsAddress: (host: String, port: Int)?

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
        if let text = SettingSpec.metricsAddress.text(environment) {
            guard let address = Self.listenAddress(text) else {
                throw SettingSpec.metricsAddress.error(text, expected: "host:port, [IPv6]:port or a port alone (on 127.0.0.1), port 0 to 65535")
            }
            configuration.metricsAddress = address
        }
        configuration.connections = try ConnectionSettings.fromEnvironment(environment)
        configuration.accounts = try AccountSettings.fromEnvironment(environment)
        configuration.booking = try BookingSettings.fromEnvironment(environment)
        configuration.events = try EventSettings.fromEnvironment(environment)
        configuration.improvement = try ImprovementSettings.fromEnvironment(environment)
        configuration.road = try RoadSettings.fromEnvironment(environment)
        configuration.readCacheBytes = try SettingSpec.readCacheMB.integer(environment) << 20
        configuration.web = try WebSettings.fromEnvironment(environment)
        configuration.trustedProxies = try TrustedProxies.fromEnvironment(environment)
        return configuration
    }

    /// The connection caps under the open-file limit the process has now.
    func connectionCaps(fileLimit: FileLimit = .current()) -> ConnectionCaps {
        ConnectionCaps(fileLimit: fileLimit.soft, poolSize: database.poolSize, asked: connections.maxConnections)
    }

    /// `9100` (loopback), `host:9100` or `[::1]:9100`.
    static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        func port(_ digits: Substring) -> Int? {
            guard let port = Int(digits), (0...65535).contains(port) else { return nil }
            return port
        }
        if let only = port(Substring(text)) { return ("127.0.0.1", only) }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard !host.isEmpty, rest.hasPrefix(":"), let number = port(rest.dropFirst()) else { return nil }
            return (String(host), number)
        }
        guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":"), colon != text.startIndex,
              let number = port(text[text.index(after: colon)...]) else { return nil }
        return (String(text[..<colon]), number)
    }
}
