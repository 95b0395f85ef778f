import Foundation
import Logging
import NIOPosix
import ServiceLifecycle
import VanPostgres

/// The running database for a process: the pool, the embedded cluster when one
/// is used, and the migrations. Open it once at start-up; close it on exit.
public final class Database: Sendable {
    /// The connection pool every store uses.
    public let pool: PGPool
    /// The embedded cluster, when `DATABASE_URL` was not given.
    public let embedded: EmbeddedPostgres?

    /// Wraps an existing pool (tests).
    public init(pool: PGPool, embedded: EmbeddedPostgres? = nil) {
        self.pool = pool
        self.embedded = embedded
    }

    /// Connects (starting the embedded cluster if needed) and checks migrations:
    /// applies pending ones when `migrate` is true, else fails if any are pending.
    public static func open(
        settings: DatabaseSettings,
        migrate: Bool = true,
        migrationsDirectory: String? = VandPaths.migrations(),
        logger: Logger
    ) async throws -> Database {
        let database = try await connect(settings: settings, logger: logger)
        do {
            let runner = try MigrationRunner(directory: migrationsDirectory, logger: logger)
            if migrate {
                try await runner.migrate(pool: database.pool)
            } else {
                let status = try await runner.status(pool: database.pool)
                if !status.pending.isEmpty {
                    throw MigrationError.pending(status.pending.map { String(format: "%04d_%@", $0.version, $0.name) })
                }
            }
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Connects without touching migrations, starting the embedded cluster if the settings say so.
    public static func connect(settings: DatabaseSettings, logger: Logger) async throws -> Database {
        switch settings.target {
        case .server(let url):
            let configuration = settings.configuration(connectionString: url)
            return Database(
                pool: PGPool(configuration: configuration, size: settings.poolSize, acquireTimeout: settings.acquireTimeout, logger: logger))
        case .embedded(let directory):
            let cluster = EmbeddedPostgres(directory: directory, logger: logger)
            let name = settings.embeddedDatabase
            // initdb and pg_ctl block for a second: keep them off the cooperative pool.
            try await NIOThreadPool.singleton.runIfActive {
                try cluster.start()
                try cluster.createDatabase(name)
            }
            let configuration = settings.configuration(connectionString: cluster.connectionString(database: name))
            let pool = PGPool(configuration: configuration, size: settings.poolSize, acquireTimeout: settings.acquireTimeout, logger: logger)
            return Database(pool: pool, embedded: cluster)
        }
    }

    /// Whether the database answers a trivial query within `timeout`. Never waits longer,
    /// even if the server is frozen: a check still running then is left to finish on its own
    /// (bounded by the pool's response timeout) and the answer is no.
    public func isReady(within timeout: Duration = .milliseconds(1500)) async -> Bool {
        let pool = self.pool
        return
            (try? await withDeadline(timeout) {
                try await pool.withConnection(acquireTimeout: timeout) { try $0.query("SELECT 1").count == 1 }
            }) ?? false
    }

    /// Closes the pool and stops the embedded cluster if this process started it
    /// (for a process without a service group; under one, ``run()`` does this).
    public func close() async {
        await pool.shutdown()
        if let embedded {
            try? await NIOThreadPool.singleton.runIfActive { embedded.stop() }
        }
    }
}

extension Database: Service {
    /// Runs the pool as a service; when the group shuts down, closes it and then stops the
    /// embedded cluster if this process started it.
    public func run() async throws {
        try await pool.run()
        if let embedded {
            try? await NIOThreadPool.singleton.runIfActive { embedded.stop() }
        }
    }
}
