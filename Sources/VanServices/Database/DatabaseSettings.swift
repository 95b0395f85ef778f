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

    /// Creates settings.
    public init(target: Target, poolSize: Int = 8) {
        self.target = target
        self.poolSize = poolSize
    }

    /// Reads the settings; a bad value is an error naming the variable.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingError) -> DatabaseSettings {
        let poolSize = try SettingSpec.poolSize.integer(environment)
        if let url = SettingSpec.databaseURL.text(environment) {
            let configuration = PGConfiguration(connectionString: url)
            do { try configuration.validate() } catch {
                throw SettingSpec.databaseURL.error(nil, expected: "a postgresql:// URI or key=value string (\(error.message))")
            }
            return DatabaseSettings(target: .server(url), poolSize: poolSize)
        }
        if environment["PGHOST"] != nil || environment["PGDATABASE"] != nil || environment["PGSERVICE"] != nil {
            return DatabaseSettings(target: .server(""), poolSize: poolSize)
        }
        return DatabaseSettings(target: .embedded(directory: EmbeddedPostgres.defaultDirectory(environment: environment)), poolSize: poolSize)
    }
}
