import Foundation
import NIOPosix
import Testing
import VanTestSupport
@testable import VanServices
@testable import VanPostgres

@Suite("PostgreSQL client against a real server")
struct PGClientTests {
    struct Profile: Codable, Equatable, Sendable {
        let name: String
        let seats: [Int]
        let note: String?
    }

    @Test func valuesRoundTrip() async throws {
        let db = try await TestCluster.makeDatabase()
        let text = "O'Brien \"quoted\" \\ backslash — émoji 🚐; DROP TABLE rides; --"
        let uuid = UUID()
        let date = Date(timeIntervalSince1970: 1_795_770_470.123456)
        let bytes = Data((0...255).map { UInt8($0) })
        let row = try await db.pool.withConnection { conn in
            try conn.query(
                """
                SELECT \(text)::text AS t, \(42) AS i, \(Int64.max) AS big, \(0.1) AS d, \(-1e-300) AS tiny,
                       \(true) AS yes, \(false) AS no, \(uuid) AS u, \(date) AS at, \(bytes) AS raw,
                       \(Int32(-7)) AS small
                """
            ).first
        }
        let r = try #require(row)
        #expect(try r.decode(String.self, "t") == text)
        #expect(try r.decode(Int.self, "i") == 42)
        #expect(try r.decode(Int64.self, "big") == Int64.max)
        #expect(try r.decode(Double.self, "d") == 0.1)
        #expect(try r.decode(Double.self, "tiny") == -1e-300)
        #expect(try r.decode(Bool.self, "yes") == true)
        #expect(try r.decode(Bool.self, "no") == false)
        #expect(try r.decode(UUID.self, "u") == uuid)
        #expect(try r.decode(Date.self, "at") == date)
        #expect(try r.decode(Data.self, "raw") == bytes)
        #expect(try r.decode(Int32.self, "small") == -7)
        await db.close()
    }

    @Test func uuidsAreReadByHandExactlyAsFoundationReadsThem() async throws {
        let db = try await TestCluster.makeDatabase()
        let rows = try await db.pool.withConnection { conn in
            try conn.query("SELECT u, u::text AS text FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, 2000)) s").map { row in
                (try row.decode(UUID.self, "u"), try row.decode(String.self, "text"))
            }
        }
        #expect(rows.count == 2_000)
        for (uuid, text) in rows { #expect(uuid == UUID(uuidString: text)) }
        #expect(UUID.parseHex("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11") == UUID(uuidString: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"))
        for bad in [
            "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111", "a0eebc99x9c0b-4ef8-bb6d-6bb9bd380a11",
            "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc999c0b-4ef8-bb6d-6bb9bd380a11-",
        ] {
            #expect(UUID.parseHex(bad) == nil, "\(bad)")
        }
        await #expect(throws: PGError.self) {
            try await db.pool.withConnection { try $0.query("SELECT 'not-a-uuid' AS u").first!.decode(UUID.self, "u") }
        }
        await db.close()
    }

    @Test func preparedStatementsArePreparedOncePerConnectionAndBindEachRun() async throws {
        let db = try await TestCluster.makeDatabase()
        let results = try await db.pool.withConnection { conn -> [String?] in
            var out: [String?] = []
            for value in ["a", nil, "c"] as [String?] {
                let query: SQLQuery = "SELECT \(value)::text || '!' AS v"
                out.append(try conn.query(query.prepared()).first!.decode(String?.self, "v"))
            }
            // Prepared once: one named statement on this connection.
            out.append(try conn.query("SELECT count(*)::text AS n FROM pg_prepared_statements").first!.decode(String.self, "n"))
            return out
        }
        #expect(results == ["a!", nil, "c!", "1"])
        // A bad statement is an error, not a poisoned cache.
        await #expect(throws: PGError.self) { try await db.pool.withConnection { try $0.query(SQLQuery("SELECT nope").prepared()) } }
        await db.close()
    }

    @Test func nullsDecodeOnlyAsOptionals() async throws {
        let db = try await TestCluster.makeDatabase()
        let missing: String? = nil
        let rows = try await db.pool.withConnection { try $0.query("SELECT \(missing)::text AS a, NULL::int AS b, 5 AS c") }
        let row = try #require(rows.first)
        #expect(try row.decode(String?.self, "a") == nil)
        #expect(try row.decode(Int?.self, "b") == nil)
        #expect(try row.decode(Int?.self, "c") == 5)
        #expect(throws: PGError.self) { try row.decode(String.self, "a") }
        let error = try #require(throws: PGError.self) { try row.decode(Int.self, "b") }
        #expect(error.kind == .decoding)
        #expect(error.message.contains("column b"))
        await db.close()
    }

    @Test func jsonColumnsDecodeIntoCodable() async throws {
        let db = try await TestCluster.makeDatabase()
        let profile = Profile(name: "Van 1", seats: [1, 2, 3], note: nil)
        let back = try await db.pool.withConnection { conn in
            try conn.execute("CREATE TABLE docs (body jsonb NOT NULL)")
            try conn.execute("INSERT INTO docs (body) VALUES (\(PGJSON(profile)))")
            return try conn.query("SELECT body FROM docs").first!.decode(PGJSON<Profile>.self, at: 0).value
        }
        #expect(back == profile)
        await db.close()
    }

    @Test func transactionCommitsOnReturnAndRollsBackOnThrow() async throws {
        struct Boom: Error {}
        let db = try await TestCluster.makeDatabase()
        try await db.pool.withConnection { try $0.execute("CREATE TABLE t (n int)") }
        try await db.pool.withTransaction { try $0.execute("INSERT INTO t VALUES (1)") }
        await #expect(throws: Boom.self) {
            try await db.pool.withTransaction { conn in
                try conn.execute("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        let values = try await db.pool.withConnection { try $0.query("SELECT n FROM t ORDER BY n").map { try $0.decode(Int.self, at: 0) } }
        #expect(values == [1])
        await db.close()
    }

    @Test func serverErrorsCarrySQLState() async throws {
        let db = try await TestCluster.makeDatabase()
        let missing = try await #require(throws: PGError.self) {
            try await db.pool.withConnection { try $0.query("SELECT * FROM no_such_table") }
        }
        #expect(missing.kind == .server)
        #expect(missing.sqlState == .undefinedTable)
        let syntax = try await #require(throws: PGError.self) {
            try await db.pool.withConnection { try $0.query("SELEKT 1") }
        }
        #expect(syntax.sqlState == .syntaxError)
        try await db.pool.withConnection { try $0.execute("CREATE TABLE u (k text CONSTRAINT u_k UNIQUE)") }
        try await db.pool.withConnection { try $0.execute("INSERT INTO u VALUES (\("x"))") }
        let duplicate = try await #require(throws: PGError.self) {
            try await db.pool.withConnection { try $0.execute("INSERT INTO u VALUES (\("x"))") }
        }
        #expect(duplicate.sqlState == .uniqueViolation)
        #expect(duplicate.constraint == "u_k")
        #expect(!duplicate.isConnectionProblem)
        // The connection that saw the errors is still fine.
        #expect(try await db.pool.withConnection { try $0.query("SELECT 1").count } == 1)
        await db.close()
    }

    @Test func killedConnectionIsReplacedNotReused() async throws {
        let db = try await TestCluster.makeDatabase(poolSize: 1)
        let firstPID = try await db.pool.withConnection { $0.backendPID }
        // Kill the pooled backend from outside the pool, as a crash or an admin would.
        let configuration = db.pool.configuration
        let killed = try await NIOThreadPool.singleton.runIfActive {
            let outsider = try PGConnection(configuration: configuration)
            defer { outsider.close() }
            return try outsider.query("SELECT pg_terminate_backend(\(firstPID), 5000) AS ok").first!.decode(Bool.self, at: 0)
        }
        #expect(killed)
        // The pool sees the dead idle connection before lending it, and lends a new one instead.
        let next = try await db.pool.withConnection { conn in
            try conn.query("SELECT 1")
            return conn.backendPID
        }
        #expect(next != firstPID)
        #expect(db.pool.openCount == 1)
        await db.close()
    }

    @Test func brokenConnectionErrorIsAConnectionProblem() async throws {
        let db = try await TestCluster.makeDatabase(poolSize: 2)
        let victim = try await db.pool.withConnection { $0.backendPID }
        let error = try await #require(throws: PGError.self) {
            try await db.pool.withConnection { conn in
                _ = try conn.query("SELECT pg_terminate_backend(pg_backend_pid())")
            }
        }
        #expect(error.isConnectionProblem)
        let after = try await db.pool.withConnection { $0.backendPID }
        #expect(after != victim)
        await db.close()
    }

    @Test func passwordNeverAppearsInErrors() async throws {
        let uri = PGConfiguration(connectionString: "postgresql://rider:s3cr3t-Pa55@/vand?host=/nonexistent-socket-dir")
        let keyValue = PGConfiguration(connectionString: "host=/nonexistent-socket-dir user=rider password=hunter2-xyz dbname=vand")
        for (configuration, secret) in [(uri, "s3cr3t-Pa55"), (keyValue, "hunter2-xyz")] {
            let pool = PGPool(configuration: configuration, size: 1)
            let error = try await #require(throws: PGError.self) {
                try await pool.withConnection { try $0.query("SELECT 1") }
            }
            #expect(error.kind == .connectionFailed)
            #expect(!"\(error)".contains(secret))
            #expect(!configuration.description.contains(secret))
            await pool.shutdown()
        }
        let malformed = PGConfiguration(connectionString: "postgresql://u:pw-in-bad-url@host/db?no_such_option=1")
        let error = try #require(throws: PGError.self) { try malformed.validate() }
        #expect(!"\(error)".contains("pw-in-bad-url"))
    }

    @Test func serializationFailuresAreRetried() async throws {
        let db = try await TestCluster.makeDatabase(poolSize: 8)
        try await db.pool.withConnection { conn in
            try conn.execute("CREATE TABLE counter (n int NOT NULL)")
            try conn.execute("INSERT INTO counter VALUES (0)")
        }
        // Twenty read-modify-write increments at once under SERIALIZABLE: some
        // lose the race with 40001 and are retried; none may be lost.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await db.pool.withRetryingTransaction(retry: RetryPolicy(maxAttempts: 50)) { conn in
                        let n = try conn.query("SELECT n FROM counter").first!.decode(Int.self, at: 0)
                        try conn.execute("UPDATE counter SET n = \(n + 1)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try await db.pool.withConnection { try $0.query("SELECT n FROM counter").first!.decode(Int.self, at: 0) }
        #expect(total == 20)
        await db.close()
    }

    @Test func poolNeverOpensMoreThanItsSize() async throws {
        let db = try await TestCluster.makeDatabase(poolSize: 3)
        let pids = try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<60 {
                group.addTask {
                    try await db.pool.withConnection {
                        try $0.query("SELECT pg_sleep(0.001)"); return $0.backendPID
                    }
                }
            }
            var seen = Set<Int32>()
            for try await pid in group { seen.insert(pid) }
            return seen
        }
        #expect(pids.count <= 3)
        #expect(db.pool.openCount <= 3)
        #expect(db.pool.inUse == 0)
        await db.close()
    }

    @Test func shutDownPoolRefusesWork() async throws {
        let db = try await TestCluster.makeDatabase()
        await db.close()
        let error = try await #require(throws: PGError.self) {
            try await db.pool.withConnection { try $0.query("SELECT 1") }
        }
        #expect(error.kind == .poolClosed)
    }
}
