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

    /// Reads the settings; a bad value is an error naming the variable.
    public static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> DatabaseSettings {
        let poolSize = try SettingSpec.poolSize.integer(environment)
        var settings: DatabaseSettings
        if let url = SettingSpec.databaseURL.text(environment) {
            let configuration = PGConfiguration(connectionString: url)
            do { try configuration.validate() } catch {
                throw SettingSpec.databaseURL.error(nil, expected: "a postgresql:// URI or key=value string (\(error.message))")
            }
            settings = DatabaseSettings(target: .server(url), poolSize: poolSize)
        } else if environment["PGHOST"] != nil || environment["PGDATABASE"] != nil || environment["PGSERVICE"] != nil {
            settings = DatabaseSettings(target: .server(""), poolSize: poolSize)
        } else {
            settings = DatabaseSettings(target: .embedded(directory: VandPaths.embeddedDirectory(environment: environment)), poolSize: poolSize)
        }
        func seconds(_ spec: SettingSpec) throws(SettingError) -> Duration {
            .milliseconds(Int64((try spec.number(environment) * 1000).rounded()))
        }
        /// 0 turns the timeout off.
        func optionalSeconds(_ spec: SettingSpec) throws(SettingError) -> Duration? {
            let value = try seconds(spec)
            return value == .zero ? nil : value
        }
        settings.acquireTimeout = try seconds(.dbAcquireTimeout)
        settings.statementTimeout = try optionalSeconds(.dbStatementTimeout)
        settings.idleInTransactionTimeout = try optionalSeconds(.dbIdleInTransactionTimeout)
        settings.tcpUserTimeout = try optionalSeconds(.dbTCPUserTimeout)
        settings.keepalives.idle = try seconds(.dbKeepalivesIdle)
        settings.keepalives.interval = try seconds(.dbKeepalivesInterval)
        settings.keepalives.count = try SettingSpec.dbKeepalivesCount.integer(environment)
        return settings
    }
}
