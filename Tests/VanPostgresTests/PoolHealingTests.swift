import Foundation
import Glibc
import NIOPosix
import Synchronization
import Testing
import VanServices
import VanTestSupport
@testable import VanPostgres

/// The pool notices a server that went away or froze, and callers never wait without bound.
@Suite("A pool that heals")
struct PoolHealingTests {
    /// Lets `count` pool threads in, holds each until all have arrived, so the pool opens `count` connections.
    final class Barrier: @unchecked Sendable {
        private let condition = NSCondition()
        private var arrived = 0
        private let count: Int
        init(count: Int) { self.count = count }

        func arriveAndWait() {
            condition.lock()
            arrived += 1
            condition.broadcast()
            while arrived < count { condition.wait() }
            condition.unlock()
        }
    }

    /// Holds `count` connections at once, so the pool has that many open; returns their backends.
    static func warm(_ pool: PGPool, count: Int) async throws -> Set<Int32> {
        let barrier = Barrier(count: count)
        return try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await pool.withConnection { connection in
                        barrier.arriveAndWait()
                        return connection.backendPID
                    }
                }
            }
            return try await group.reduce(into: Set<Int32>()) { $0.insert($1) }
        }
    }

    /// Runs one statement on a connection of its own (as an administrator would).
    static func outside(_ configuration: PGConfiguration, _ sql: SQLQuery) async throws {
        try await NIOThreadPool.singleton.runIfActive {
            let outsider = try PGConnection(configuration: PGConfiguration(connectionString: configuration.connectionString))
            defer { outsider.close() }
            try outsider.query(sql)
        }
    }

    @Test func theFirstRequestOnEveryPooledConnectionSucceedsAfterTheServerDroppedThemAll() async throws {
        let db = try await TestCluster.makeDatabase(poolSize: 4)
        let before = try await Self.warm(db.pool, count: 4)
        #expect(before.count == 4 && db.pool.openCount == 4)
        // What a restart does to every session: the server ends it with a notice and closes the socket.
        try await Self.outside(
            db.pool.configuration,
            """
            SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """)
        let after = try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await db.pool.withConnection {
                        try $0.query("SELECT 1"); return $0.backendPID
                    }
                }
            }
            return try await group.reduce(into: Set<Int32>()) { $0.insert($1) }
        }
        #expect(after.isDisjoint(with: before), "a dead connection was lent")
        #expect(db.pool.openCount <= 4)
        await db.close()
    }

    @Test func aQuietIdleConnectionIsLentWithoutARoundTrip() async throws {
        let db = try await TestCluster.makeDatabase(poolSize: 1)
        let first = try await db.pool.withConnection { $0.backendPID }
        // With its backend stopped, any round trip would go unanswered (and the connection be
        // replaced); the check before lending only polls the quiet socket, so it is lent as is.
        #expect(kill(first, SIGSTOP) == 0)
        defer { kill(first, SIGCONT) }
        let (pid, alive) = try await db.pool.withConnection { ($0.backendPID, $0.isAlive()) }
        kill(first, SIGCONT)
        #expect(pid == first)
        #expect(alive)
        await db.close()
    }

    @Test func aCallerWaitsForAFreeConnectionOnlyUntilTheDeadline() async throws {
        let url = try await TestCluster.makeDatabaseURL(template: "vand_template")
        let pool = PGPool(
            configuration: PGConfiguration(connectionString: url), size: 1,
            acquireTimeout: .milliseconds(200),  // clock-ok: expected to expire
            logger: TestCluster.quietLogger)
        let gate = Gate()
        let holder = Task { try await pool.withConnection { _ in gate.enterAndWait() } }
        await gate.waitUntilEntered()
        let error = try await #require(throws: PGError.self) {
            try await pool.withConnection { try $0.query("SELECT 1") }
        }
        #expect(error.kind == .timedOut)
        #expect(error.isConnectionProblem, "so the error table answers 503")
        gate.openUp()
        try await holder.value
        #expect(try await pool.withConnection { try $0.query("SELECT 1").count } == 1)
        #expect(pool.inUse == 0)
        await pool.shutdown()
    }

    @Test func aFrozenServerIsGivenUpAtTheResponseDeadlineAndTheConnectionReplaced() async throws {
        let url = try await TestCluster.makeDatabaseURL(template: "vand_template")
        let configuration = PGConfiguration(connectionString: url, responseTimeout: .milliseconds(300))  // clock-ok: expected to expire
        let pool = PGPool(configuration: configuration, size: 1, logger: TestCluster.quietLogger)
        let frozen = try await pool.withConnection { $0.backendPID }
        // SIGSTOP on the backend: the kernel still takes the bytes, nobody answers, no error ever comes.
        #expect(kill(frozen, SIGSTOP) == 0)
        defer { kill(frozen, SIGCONT) }
        let error = try await #require(throws: PGError.self) {
            try await pool.withConnection { try $0.query("SELECT 1") }
        }
        #expect(error.kind == .timedOut)
        #expect(error.isConnectionProblem)
        kill(frozen, SIGCONT)
        let next = try await pool.withConnection { conn in
            try conn.query("SELECT 1")
            return conn.backendPID
        }
        #expect(next != frozen)
        await pool.shutdown()
    }

    @Test func sessionTimeoutsArriveInTheStartupPacketAndKeepTheStringsOwnOptions() async throws {
        let url = try await TestCluster.makeDatabaseURL(template: "vand_template")
        let configuration = PGConfiguration(
            connectionString: url + " options='-c work_mem=8MB'",
            keepalives: .init(idle: .seconds(30), interval: .seconds(10), count: 3), tcpUserTimeout: .seconds(30),
            statementTimeout: .milliseconds(1234), idleInTransactionSessionTimeout: .seconds(5)  // clock-ok: settings read back, not waited on
        )
        let parameters = Dictionary(uniqueKeysWithValues: configuration.defaultParameters)
        #expect(parameters["keepalives"] == "1")
        #expect(parameters["keepalives_idle"] == "30")
        #expect(parameters["keepalives_interval"] == "10")
        #expect(parameters["keepalives_count"] == "3")
        #expect(parameters["tcp_user_timeout"] == "30000")
        let pool = PGPool(configuration: configuration, size: 1, logger: TestCluster.quietLogger)
        let shown = try await pool.withConnection { conn in
            try ["statement_timeout", "idle_in_transaction_session_timeout", "work_mem"].map { name in
                try conn.query("SELECT current_setting(\(name))").first!.decode(String.self, at: 0)
            }
        }
        #expect(shown == ["1234ms", "5s", "8MB"])
        // Migrations lift the statement timeout for their work and put it back.
        let lifted = try await pool.withConnection { conn in
            try conn.withoutStatementTimeout { try conn.query("SHOW statement_timeout").first!.decode(String.self, at: 0) }
        }
        #expect(lifted == "0")
        #expect(try await pool.withConnection { try $0.query("SHOW statement_timeout").first!.decode(String.self, at: 0) } == "1234ms")
        await pool.shutdown()
    }

    @Test func aStatementOverTheTimeoutIsCancelledByTheServerAndTheConnectionKept() async throws {
        let url = try await TestCluster.makeDatabaseURL(template: "vand_template")
        // The server cancels at 100 ms (its own clock); the client waits up to a minute for that answer.
        let configuration = PGConfiguration(
            connectionString: url,
            statementTimeout: .milliseconds(100),  // clock-ok: the server's timeout, expected to expire
            responseTimeout: .seconds(60))
        let pool = PGPool(configuration: configuration, size: 1, logger: TestCluster.quietLogger)
        let first = try await pool.withConnection { $0.backendPID }
        let error = try await #require(throws: PGError.self) {
            try await pool.withConnection { try $0.query("SELECT pg_sleep(5)") }
        }
        #expect(error.sqlState == SQLState(rawValue: "57014"))
        #expect(!error.isConnectionProblem)
        #expect(try await pool.withConnection { $0.backendPID } == first)
        await pool.shutdown()
    }
}
