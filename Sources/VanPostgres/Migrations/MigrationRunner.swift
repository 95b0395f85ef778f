import Logging

/// Applies `sql/` migrations in order, each once, each in its own transaction,
/// recording version, name and checksum in `schema_migrations`. A session
/// advisory lock lets several processes start at once without racing.
public struct MigrationRunner: Sendable {
    /// The migrations this build ships, in order.
    public let migrations: [Migration]
    private let logger: Logger

    /// The lock key every vand process agrees on ("vandmigr" in ASCII).
    static let advisoryLockKey: Int64 = 0x7661_6e64_6d69_6772

    /// Creates a runner for the given migrations.
    public init(migrations: [Migration], logger: Logger = Logger(label: "vand.migrations")) {
        self.migrations = migrations
        self.logger = logger
    }

    /// A runner for the files in `directory` (nil: the folder was not found).
    public init(directory: String?, logger: Logger = Logger(label: "vand.migrations")) throws(MigrationError) {
        guard let directory else { throw .directoryNotFound }
        self.init(migrations: try Migration.load(from: directory), logger: logger)
    }

    /// What the database has applied, and what is waiting.
    public struct Status: Sendable {
        /// Applied migrations, oldest first.
        public let applied: [Migration]
        /// Migrations to apply, in order.
        public let pending: [Migration]
    }

    /// Checks applied checksums and applies pending migrations. Returns what it applied.
    @discardableResult
    public func migrate(pool: PGPool) async throws -> [Migration] {
        let migrations = self.migrations
        let logger = self.logger
        return try await pool.withConnection { connection in
            // A migration may take long, and so may waiting for another process's: no statement timeout.
            try connection.withoutStatementTimeout {
                try connection.query("SELECT pg_advisory_lock(\(Self.advisoryLockKey))")
                defer { _ = try? connection.query("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))") }
                try Self.createTable(connection)
                let status = try Self.status(connection, migrations: migrations)
                for migration in status.pending {
                    try connection.transaction {
                        try connection.execute(simple: migration.sql)
                        try connection.execute(
                            """
                            INSERT INTO schema_migrations (version, name, checksum)
                            VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                            """)
                    }
                    logger.info("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                }
                return status.pending
            }
        }
    }

    /// Reads what is applied and verifies checksums, without changing anything.
    public func status(pool: PGPool) async throws -> Status {
        let migrations = self.migrations
        return try await pool.withConnection { connection in
            try Self.createTable(connection)
            return try Self.status(connection, migrations: migrations)
        }
    }

    private static func createTable(_ connection: PGConnection) throws {
        try connection.execute(
            simple: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    checksum text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
    }

    private static func status(_ connection: PGConnection, migrations: [Migration]) throws -> Status {
        var applied: [Migration] = []
        var appliedVersions = Set<Int>()
        for row in try connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version") {
            let version = try row.decode(Int.self, "version")
            let name = try row.decode(String.self, "name")
            let checksum = try row.decode(String.self, "checksum")
            guard let known = migrations.first(where: { $0.version == version }) else {
                throw MigrationError.unknownApplied(version: version, name: name)
            }
            guard known.checksum == checksum else {
                throw MigrationError.checksumMismatch(version: version, name: known.name)
            }
            applied.append(known)
            appliedVersions.insert(version)
        }
        return Status(applied: applied, pending: migrations.filter { !appliedVersions.contains($0.version) })
    }
}
