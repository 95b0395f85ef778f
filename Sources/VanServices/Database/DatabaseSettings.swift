import Foundation
import VanPostgres

/// How to reach PostgreSQL, read from the environment: `DATABASE_URL`, or the
/// `PG*` variables when `PGHOST` or `PGDATABASE` is set, else the embedded
/// cluster in `VAND_DATA_DIR`.
public struct DatabaseSettings: Sendable {
    /// Where the database is.
    public enum Target: Sendable {
        /// An existing server; the string is a libpq URI or key=value list ("" means PG* variables).
        case server(String)
        /// A private cluster in this folder, started on demand.
        case embedded(directory: String)
    }

    /// Where to connect.
    public var target: Target
    /// Connections in the pool (`VAND_DB_POOL_SIZE`, default 8: measured best on 2 cores).
    public var poolSize: Int
    /// Database name inside the embedded cluster.
    public var embeddedDatabase: String = "vand"
    /// How long a request waits for a free connection before it is refused (503) (`VAND_DB_ACQUIRE_TIMEOUT`).
    public var acquireTimeout: Duration = .seconds(3)
    /// The server's `statement_timeout` (`VAND_DB_STATEMENT_TIMEOUT`; nil: none). The client
    /// gives a connection up as dead when no answer comes a second after it.
    public var statementTimeout: Duration? = .seconds(5)
    /// The server's `idle_in_transaction_session_timeout` (`VAND_DB_IDLE_IN_TRANSACTION_TIMEOUT`; nil: none).
    public var idleInTransactionTimeout: Duration? = .seconds(30)
    /// TCP keepalives (`VAND_DB_KEEPALIVES_IDLE`, `…_INTERVAL`, `…_COUNT`): a silent peer is dropped after about a minute.
    public var keepalives = PGConfiguration.Keepalives(idle: .seconds(30), interval: .seconds(10), count: 3)
    /// `tcp_user_timeout` (`VAND_DB_TCP_USER_TIMEOUT`; nil: the kernel's default).
    public var tcpUserTimeout: Duration? = .seconds(30)

    /// How much longer than `statement_timeout` the client waits for an answer: the server's
    /// own cancellation comes first whenever the server is running at all.
    public static let responseGrace: Duration = .seconds(1)

    /// Creates settings.
    public init(target: Target, poolSize: Int = 8) {
        self.target = target
        self.poolSize = poolSize
    }

    /// The client configuration for a connection string, with these timeouts and keepalives.
    public func configuration(connectionString: String) -> PGConfiguration {
        PGConfiguration(
            connectionString: connectionString, keepalives: keepalives, tcpUserTimeout: tcpUserTimeout,
            statementTimeout: statementTimeout, idleInTransactionSessionTimeout: idleInTransactionTimeout,
            responseTimeout: statementTimeout.map { $0 + Self.responseGrace }
        )
    }

    /// The lines `vand --help` shows for the connection's timeouts.
    public static let helpText = """
          VAND_DB_ACQUIRE_TIMEOUT
                              Seconds a request waits for a free connection
                              before it gets 503, 0.1 to 300 (default 3).
          VAND_DB_STATEMENT_TIMEOUT
                              Seconds a statement may run (statement_timeout;
                              a connection with no answer 1 s later is
                              dropped), 0 (none) to 3600 (default 5).
                              Migrations run without it.
          VAND_DB_IDLE_IN_TRANSACTION_TIMEOUT
                              Seconds a session may sit idle in a
                              transaction, 0 (none) to 3600 (default 30).
          VAND_DB_KEEPALIVES_IDLE
                              TCP keepalives: seconds of silence before the
                              first probe, 1 to 7200 (default 30).
          VAND_DB_KEEPALIVES_INTERVAL
                              Seconds between probes, 1 to 600 (default 10).
          VAND_DB_KEEPALIVES_COUNT
                              Unanswered probes before the connection is
                              dropped, 1 to 100 (default 3).
          VAND_DB_TCP_USER_TIMEOUT
                              Seconds sent data may go unacknowledged before
                              the connection is dropped, 0 (the kernel's
                              default) to 3600 (default 30).
        """

    /// Reads the settings; a bad value is an error naming the variable.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingError) -> DatabaseSettings {
        var poolSize = 8
        if let text = environment["VAND_DB_POOL_SIZE"], !text.isEmpty {
            guard let value = Int(text), (1...200).contains(value) else {
                throw SettingError(variable: "VAND_DB_POOL_SIZE", value: text, expected: "a whole number from 1 to 200")
            }
            poolSize = value
        }
        var settings: DatabaseSettings
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            let configuration = PGConfiguration(connectionString: url)
            do { try configuration.validate() } catch {
                throw SettingError(variable: "DATABASE_URL", value: nil, expected: "a postgresql:// URI or key=value string (\(error.message))")
            }
            settings = DatabaseSettings(target: .server(url), poolSize: poolSize)
        } else if environment["PGHOST"] != nil || environment["PGDATABASE"] != nil || environment["PGSERVICE"] != nil {
            settings = DatabaseSettings(target: .server(""), poolSize: poolSize)
        } else {
            settings = DatabaseSettings(target: .embedded(directory: EmbeddedPostgres.defaultDirectory(environment: environment)), poolSize: poolSize)
        }
        func seconds(_ variable: String, _ range: ClosedRange<Double>) throws(SettingError) -> Duration? {
            guard let text = environment[variable], !text.isEmpty else { return nil }
            guard let value = Double(text), range.contains(value) else {
                throw SettingError(variable: variable, value: text, expected: "a number of seconds from \(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound))")
            }
            return .milliseconds(Int64((value * 1000).rounded()))
        }
        /// 0 turns the timeout off.
        func optionalSeconds(_ variable: String, _ current: Duration?) throws(SettingError) -> Duration? {
            guard let value = try seconds(variable, 0...3600) else { return current }
            return value == .zero ? nil : value
        }
        if let value = try seconds("VAND_DB_ACQUIRE_TIMEOUT", 0.1...300) { settings.acquireTimeout = value }
        settings.statementTimeout = try optionalSeconds("VAND_DB_STATEMENT_TIMEOUT", settings.statementTimeout)
        settings.idleInTransactionTimeout = try optionalSeconds("VAND_DB_IDLE_IN_TRANSACTION_TIMEOUT", settings.idleInTransactionTimeout)
        settings.tcpUserTimeout = try optionalSeconds("VAND_DB_TCP_USER_TIMEOUT", settings.tcpUserTimeout)
        if let value = try seconds("VAND_DB_KEEPALIVES_IDLE", 1...7200) { settings.keepalives.idle = value }
        if let value = try seconds("VAND_DB_KEEPALIVES_INTERVAL", 1...600) { settings.keepalives.interval = value }
        if let text = environment["VAND_DB_KEEPALIVES_COUNT"], !text.isEmpty {
            guard let value = Int(text), (1...100).contains(value) else {
                throw SettingError(variable: "VAND_DB_KEEPALIVES_COUNT", value: text, expected: "a whole number from 1 to 100")
            }
            settings.keepalives.count = value
        }
        return settings
    }
}

/// A setting from the environment that cannot be used.
public struct SettingError: Error, CustomStringConvertible, Sendable {
    /// The environment variable.
    public let variable: String
    /// The value given (nil when it must not be shown, e.g. it may hold a password).
    public let value: String?
    /// What would have been accepted.
    public let expected: String

    /// Creates an error.
    public init(variable: String, value: String?, expected: String) {
        self.variable = variable
        self.value = value
        self.expected = expected
    }

    public var description: String {
        if let value { return "\(variable)=\(value) is not valid: expected \(expected)" }
        return "\(variable) is not valid: expected \(expected)"
    }
}
