import Foundation
import Logging
import VanServices
import VanPostgres

/// Everything `vand` reads from its environment, with defaults that work on a laptop: the
/// services' settings (``VandSettings``, read as `vanadmin` and `vand-bench` read them) and, beside
/// them, what only the HTTP server needs. `configuration.booking` reads `settings.booking`.
@dynamicMemberLookup
struct AppConfiguration: Sendable {
    /// The settings every path shares: database, zone, hotline, accounts, booking, events, road, planner.
    var settings: VandSettings
    var host = "127.0.0.1"
    var port = 8080
    var logLevel: Logger.Level = .info
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

    /// The HTTP defaults around `settings`.
    init(settings: VandSettings) { self.settings = settings }

    /// The defaults, on `database`.
    init(database: DatabaseSettings) { self.init(settings: VandSettings(database: database)) }

    /// One of the shared settings (``VandSettings``), read and written in place.
    subscript<Value>(dynamicMember path: WritableKeyPath<VandSettings, Value>) -> Value {
        get { settings[keyPath: path] }
        set { settings[keyPath: path] = newValue }
    }

    /// Reads the environment; the first bad value stops start-up with a line naming it.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingError) -> AppConfiguration {
        var configuration = AppConfiguration(settings: try VandSettings.fromEnvironment(environment))
        configuration.host = SettingSpec.host.text(environment) ?? SettingSpec.host.defaultValue!
        configuration.port = try SettingSpec.port.integer(environment)
        guard let level = Logger.Level(rawValue: try SettingSpec.logLevel.choice(environment)) else { throw SettingSpec.logLevel.error(nil) }
        configuration.logLevel = level
        if let text = SettingSpec.metricsAddress.text(environment) {
            guard let address = Self.listenAddress(text) else {
                throw SettingSpec.metricsAddress.error(text, expected: "host:port, [IPv6]:port or a port alone (on 127.0.0.1), port 0 to 65535")
            }
            configuration.metricsAddress = address
        }
        configuration.connections = try ConnectionSettings.fromEnvironment(environment)
        configuration.readCacheBytes = try SettingSpec.readCacheMB.integer(environment) << 20
        configuration.web = try WebSettings.fromEnvironment(environment)
        configuration.trustedProxies = try TrustedProxies.fromEnvironment(environment)
        return configuration
    }

    /// The connection caps under the open-file limit the process has now.
    func connectionCaps(fileLimit: FileLimit = .current()) -> ConnectionCaps {
        ConnectionCaps(fileLimit: fileLimit.soft, poolSize: settings.database.poolSize, asked: connections.maxConnections)
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
            let number = port(text[text.index(after: colon)...])
        else { return nil }
        return (String(text[..<colon]), number)
    }
}
