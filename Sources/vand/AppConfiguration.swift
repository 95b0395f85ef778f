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
    /// Where `/metrics` is served on its own (VAND_METRICS_ADDRESS); nil: on the riders' port.
    var metricsAddress: (host: String, port: Int)?

    /// One line per setting for `vand --help`.
    static let helpText = """
        Settings (environment variables):
          DATABASE_URL        PostgreSQL URI or key=value string. Unset: start the embedded
                              cluster in VAND_DATA_DIR (PG* variables are used when PGHOST is set).
          VAND_DATA_DIR       Embedded cluster folder (default /var/lib/vand/embedded as root,
                              else ~/.local/state/vand/embedded).
          VAND_DB_POOL_SIZE   Database connections (default 8).
          VAND_HOST           Address to listen on (default 127.0.0.1).
          VAND_PORT           Port to listen on (default 8080; 0 picks a free one).
          VAND_TIMEZONE       Service time zone, IANA name (default America/New_York).
          VAND_LOG_LEVEL      trace|debug|info|notice|warning|error|critical (default info).
          VAND_SQL_DIR        Folder of migrations (default: found beside the binary or checkout).
          VAND_HOTLINE        The office's phone number, shown to riders who must call
                              (e.g. when not cleared to book; default: none shown).
          VAND_METRICS_ADDRESS
                              Serve /metrics on its own listener (host:port,
                              or a port alone on 127.0.0.1) and not on
                              VAND_PORT (default unset: on VAND_PORT).
                              Keep it off the public port.
        \(DatabaseSettings.helpText)
        \(AccountSettings.helpText)
        \(BookingSettings.helpText)
        \(EventSettings.helpText)
        \(WebSettings.helpText)
        """

    /// Reads the environment; the first bad value stops start-up with a line naming it.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingError) -> AppConfiguration {
        var configuration = AppConfiguration(database: try DatabaseSettings.fromEnvironment(environment))
        if let host = environment["VAND_HOST"], !host.isEmpty { configuration.host = host }
        if let text = environment["VAND_PORT"], !text.isEmpty {
            guard let port = Int(text), (0...65535).contains(port) else {
                throw SettingError(variable: "VAND_PORT", value: text, expected: "a port number from 0 to 65535")
            }
            configuration.port = port
        }
        if let text = environment["VAND_TIMEZONE"], !text.isEmpty {
            guard let zone = TimeZone(identifier: text) else {
                throw SettingError(variable: "VAND_TIMEZONE", value: text, expected: "an IANA time zone such as America/New_York")
            }
            configuration.timeZone = zone
        }
        if let text = environment["VAND_LOG_LEVEL"], !text.isEmpty {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw SettingError(variable: "VAND_LOG_LEVEL", value: text, expected: "trace, debug, info, notice, warning, error or critical")
            }
            configuration.logLevel = level
        }
        if let text = environment["VAND_HOTLINE"], !text.isEmpty {
            let hotline = text.trimmingCharacters(in: .whitespaces)
            guard (3...40).contains(hotline.count), hotline.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
                throw SettingError(variable: "VAND_HOTLINE", value: text, expected: "a phone number as riders should see it, e.g. 607-555-0100")
            }
            configuration.hotline = hotline
        }
        if let text = environment["VAND_METRICS_ADDRESS"], !text.isEmpty {
            guard let address = Self.listenAddress(text) else {
                throw SettingError(variable: "VAND_METRICS_ADDRESS", value: text, expected: "host:port, [IPv6]:port or a port alone (on 127.0.0.1), port 0 to 65535")
            }
            configuration.metricsAddress = address
        }
        configuration.accounts = try AccountSettings.fromEnvironment(environment)
        configuration.booking = try BookingSettings.fromEnvironment(environment)
        configuration.events = try EventSettings.fromEnvironment(environment)
        configuration.web = try WebSettings.fromEnvironment(environment)
        return configuration
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
