import Foundation
import NIOPosix
import Testing
import VanTestSupport
@testable import VanServices
@testable import VanPostgres

@Suite("LISTEN/NOTIFY")
struct ListenerTests {
    @Test func receivesNotifications() async throws {
        let db = try await TestCluster.makeDatabase()
        let channel = "ride_events_test"
        let events = PGListener.events(configuration: db.pool.configuration, channels: [channel])
        let received = try await withTimeout(seconds: 120) {
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .listening)
            try await db.pool.withConnection { try $0.query("SELECT pg_notify(\(channel), \("ride 42 created"))") }
            try await db.pool.withConnection { try $0.query("SELECT pg_notify(\("other_channel"), \("ignored"))") }
            try await db.pool.withConnection { try $0.query("SELECT pg_notify(\(channel), \("ride 43 created"))") }
            return [await iterator.next(), await iterator.next()]
        }
        #expect(
            received == [
                .notification(PGNotification(channel: channel, payload: "ride 42 created")),
                .notification(PGNotification(channel: channel, payload: "ride 43 created")),
            ])
        await db.close()
    }

    @Test func reconnectsAndListensAgainAfterServerRestart() async throws {
        // Its own cluster: restarting the shared one would disturb other suites.
        let cluster = EmbeddedPostgres(directory: TestCluster.directory + "-restart", ephemeral: true, port: 5433, logger: TestCluster.quietLogger)
        try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
        defer { try? cluster.forceStop(); try? FileManager.default.removeItem(atPath: cluster.directory) }
        let configuration = PGConfiguration(connectionString: cluster.connectionString())
        let pool = PGPool(configuration: configuration, size: 1)
        let events = PGListener.events(configuration: configuration, channels: ["restart_test"], maxBackoff: .milliseconds(200))
        let got: [PGListenEvent?] = try await withTimeout(seconds: 60) {
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .listening)
            try await pool.withConnection { try $0.query("SELECT pg_notify('restart_test', 'before')") }
            let before = await iterator.next()
            try await NIOThreadPool.singleton.runIfActive { try cluster.restart() }
            // The listener must notice (and say so), reconnect and LISTEN again by itself.
            #expect(await iterator.next() == .lost)
            #expect(await iterator.next() == .listening)
            // The pool's old connection died with the server; the retry gets a new one.
            try await RetryOnConnectionLoss.run { try await pool.withConnection { _ = try $0.query("SELECT pg_notify('restart_test', 'after')") } }
            return [before, await iterator.next()]
        }
        #expect(
            got == [
                .notification(PGNotification(channel: "restart_test", payload: "before")),
                .notification(PGNotification(channel: "restart_test", payload: "after")),
            ])
        await pool.shutdown()
    }
}

/// Runs work again once if the first attempt hit a dead pooled connection.
enum RetryOnConnectionLoss {
    static func run(_ work: () async throws -> Void) async throws {
        do { try await work() } catch let error as PGError where error.isConnectionProblem { try await work() }
    }
}
