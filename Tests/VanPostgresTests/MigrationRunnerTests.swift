import Foundation
import Testing
import VanTestSupport
@testable import VanServices
@testable import VanPostgres

@Suite("Migrations")
struct MigrationRunnerTests {
    /// A folder of SQL files for one test.
    struct Folder {
        let path = NSTemporaryDirectory() + "vand-migrations-" + UUID().uuidString
        init(_ files: [String: String]) throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for (name, sql) in files { try write(name, sql) }
        }
        func write(_ name: String, _ sql: String) throws {
            try sql.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
        }
        func remove(_ name: String) throws { try FileManager.default.removeItem(atPath: path + "/" + name) }
    }

    func emptyPool() async throws -> PGPool {
        PGPool(configuration: PGConfiguration(connectionString: try await TestCluster.makeDatabaseURL()), size: 1)
    }

    func tables(_ pool: PGPool) async throws -> [String] {
        try await pool.withConnection { conn in
            try conn.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename").map { try $0.decode(String.self, at: 0) }
        }
    }

    @Test func appliesInNumericOrderAndOnlyOnce() async throws {
        // 0010 depends on 0002, so applying by file-system order would fail.
        let folder = try Folder([
            "0010_child.sql": "CREATE TABLE child (id int REFERENCES parent (id));",
            "0002_parent.sql": "CREATE TABLE parent (id int PRIMARY KEY); INSERT INTO parent VALUES (1);",
            "README.txt": "not a migration",
        ])
        let pool = try await emptyPool()
        let runner = try MigrationRunner(directory: folder.path)
        let first = try await runner.migrate(pool: pool)
        #expect(first.map(\.version) == [2, 10])
        let second = try await runner.migrate(pool: pool)
        #expect(second.isEmpty)
        let rows = try await pool.withConnection { conn in
            try conn.query("SELECT version, checksum FROM schema_migrations ORDER BY version").map {
                (try $0.decode(Int.self, at: 0), try $0.decode(String.self, at: 1))
            }
        }
        #expect(rows.map(\.0) == [2, 10])
        #expect(rows.map(\.1) == runner.migrations.map(\.checksum))
        // Applied once: the seed row was not inserted twice.
        #expect(try await pool.withConnection { try $0.query("SELECT count(*) FROM parent").first!.decode(Int.self, at: 0) } == 1)
        await pool.shutdown()
    }

    @Test func refusesAChangedAppliedMigrationAndAppliesNothing() async throws {
        let folder = try Folder(["0001_a.sql": "CREATE TABLE a (id int);"])
        let pool = try await emptyPool()
        try await MigrationRunner(directory: folder.path).migrate(pool: pool)
        try folder.write("0001_a.sql", "CREATE TABLE a (id bigint);")
        try folder.write("0002_b.sql", "CREATE TABLE b (id int);")
        let error = try await #require(throws: MigrationError.self) {
            try await MigrationRunner(directory: folder.path).migrate(pool: pool)
        }
        #expect(error == .checksumMismatch(version: 1, name: "a"))
        #expect(error.description.contains("0001_a.sql was changed"))
        #expect(try await tables(pool) == ["a", "schema_migrations"])
        await pool.shutdown()
    }

    @Test func aFailingMigrationLeavesNoTrace() async throws {
        let folder = try Folder([
            "0001_a.sql": "CREATE TABLE a (id int);",
            "0002_broken.sql": "CREATE TABLE half (id int); SELECT * FROM nowhere;",
        ])
        let pool = try await emptyPool()
        let error = try await #require(throws: PGError.self) {
            try await MigrationRunner(directory: folder.path).migrate(pool: pool)
        }
        #expect(error.sqlState == .undefinedTable)
        // 0001 committed in its own transaction; 0002 rolled back entirely.
        #expect(try await tables(pool) == ["a", "schema_migrations"])
        let versions = try await pool.withConnection { try $0.query("SELECT version FROM schema_migrations").map { try $0.decode(Int.self, at: 0) } }
        #expect(versions == [1])
        await pool.shutdown()
    }

    @Test func refusesUnknownAppliedMigration() async throws {
        let folder = try Folder(["0001_a.sql": "SELECT 1;", "0002_b.sql": "SELECT 2;"])
        let pool = try await emptyPool()
        try await MigrationRunner(directory: folder.path).migrate(pool: pool)
        try folder.remove("0002_b.sql")
        await #expect(throws: MigrationError.unknownApplied(version: 2, name: "b")) {
            try await MigrationRunner(directory: folder.path).migrate(pool: pool)
        }
        await pool.shutdown()
    }

    @Test func badFileNamesAndDuplicatesAreRefused() throws {
        let badName = try Folder(["1_a.sql": "SELECT 1;"])
        #expect(throws: MigrationError.badFileName("1_a.sql")) { try Migration.load(from: badName.path) }
        let duplicate = try Folder(["0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 2;"])
        #expect(throws: MigrationError.self) { try Migration.load(from: duplicate.path) }
        // The generated snapshot beside the migrations is not one of them.
        let snapshot = try Folder(["0001_a.sql": "SELECT 1;", "schema.sql": "CREATE TABLE a (id int);"])
        #expect(try Migration.load(from: snapshot.path).map(\.name) == ["a"])
    }

    @Test func concurrentRunnersApplyEachMigrationOnce() async throws {
        let folder = try Folder(["0001_a.sql": "CREATE TABLE a (id int);", "0002_b.sql": "CREATE TABLE b (id int);"])
        let url = try await TestCluster.makeDatabaseURL()
        let applied = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let pool = PGPool(configuration: PGConfiguration(connectionString: url), size: 1)
                    let count = try await MigrationRunner(directory: folder.path).migrate(pool: pool).count
                    await pool.shutdown()
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(applied == 2)
    }

    @Test func theShippedSchemaHasTheDesignTables() async throws {
        let db = try await TestCluster.makeDatabase()
        let names = Set(try await tables(db.pool))
        for table in [
            "whitelist", "riders", "sessions", "vans", "places", "service_hours", "closures", "rides", "ride_events", "deliveries", "audit_log",
            "schema_migrations",
        ] {
            #expect(names.contains(table), "missing table \(table)")
        }
        await db.close()
    }
}
