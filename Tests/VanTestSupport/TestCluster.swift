import Foundation
import Glibc
import Logging
import NIOPosix
import VanServices
import VanPostgres

/// One throwaway PostgreSQL cluster per test process, with a migrated template
/// database; every suite gets its own database copied from the template, so
/// suites run in parallel and never see each other's rows.
///
/// Set `VAND_TEST_DATABASE_URL` to use an existing server instead (its role must
/// be allowed to create databases). If neither works the tests fail loudly.
public enum TestCluster {
    /// The folder of this process's cluster.
    public static let directory = "/tmp/vand-test-\(getpid())"

    private static let shared = Task<Shared, any Error> { try await Shared.start() }

    struct Shared: Sendable {
        /// Connection string for a database name.
        let connectionString: @Sendable (String) -> String
        let admin: PGConfiguration
    }

    /// A fresh, migrated database of its own.
    public static func makeDatabase(poolSize: Int = 4, label: String = #function) async throws -> Database {
        let name = try await makeDatabaseName(template: "vand_template")
        let shared = try await shared.value
        let pool = PGPool(configuration: PGConfiguration(connectionString: shared.connectionString(name)), size: poolSize, logger: quietLogger)
        return Database(pool: pool)
    }

    /// A connection string for a fresh database; empty (no tables) unless a template is given.
    public static func makeDatabaseURL(template: String? = nil) async throws -> String {
        let name = try await makeDatabaseName(template: template ?? "template0")
        return try await shared.value.connectionString(name)
    }

    private static func makeDatabaseName(template: String) async throws -> String {
        let shared = try await shared.value
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try await NIOThreadPool.singleton.runIfActive {
            let admin = try PGConnection(configuration: shared.admin)
            defer { admin.close() }
            try admin.execute(simple: "CREATE DATABASE \(name) TEMPLATE \(template)")
        }
        return name
    }

    /// Logs only warnings and worse, so test output stays readable.
    public static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }

    /// The repository's `sql/` folder.
    public static let sqlDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sql").path
}

extension TestCluster.Shared {
    static func start() async throws -> TestCluster.Shared {
        let shared: TestCluster.Shared
        if let url = ProcessInfo.processInfo.environment["VAND_TEST_DATABASE_URL"], !url.isEmpty {
            let admin = PGConfiguration(connectionString: url)
            shared = TestCluster.Shared(connectionString: { name in "\(url) dbname=\(name)" }, admin: admin)
        } else {
            let cluster = EmbeddedPostgres(directory: TestCluster.directory, ephemeral: true, logger: TestCluster.quietLogger)
            do {
                try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
            } catch {
                throw TestClusterError(reason: "could not start a throwaway PostgreSQL for the tests: \(error)")
            }
            atexit { TestCluster.destroy() }
            shared = TestCluster.Shared(
                connectionString: { cluster.connectionString(database: $0) }, admin: PGConfiguration(connectionString: cluster.connectionString()))
        }
        // The migrated template every test database is copied from.
        try await NIOThreadPool.singleton.runIfActive {
            let admin = try PGConnection(configuration: shared.admin)
            defer { admin.close() }
            try admin.execute(simple: "DROP DATABASE IF EXISTS vand_template")
            try admin.execute(simple: "CREATE DATABASE vand_template TEMPLATE template0")
        }
        let pool = PGPool(
            configuration: PGConfiguration(connectionString: shared.connectionString("vand_template")), size: 1, logger: TestCluster.quietLogger)
        try await MigrationRunner(directory: TestCluster.sqlDirectory, logger: TestCluster.quietLogger).migrate(pool: pool)
        await pool.shutdown()
        return shared
    }
}

extension TestCluster {
    /// Stops the cluster and deletes its folder (at process exit).
    static func destroy() {
        try? EmbeddedPostgres(directory: directory, ephemeral: true).forceStop(mode: "immediate")
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The tests could not get a database; the message says why.
public struct TestClusterError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
