import Foundation
import Synchronization
import Testing
import VanServices
import VanTestSupport
import VanPostgres

@Suite("vanadmin events and watch, the real binary on a real database")
struct VanAdminEventsTests {
    /// A rider and one ride written with plain SQL (so the trigger wrote its `created` event).
    static func ride(_ db: Database, note: String) async throws {
        try await db.pool.withConnection { conn in
            try conn.execute("INSERT INTO riders (net_id, password_hash) VALUES ('ann1', 'x') ON CONFLICT DO NOTHING")
            try conn.execute(
                """
                INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at, note)
                VALUES (gen_random_uuid(), 'ann1', 'scheduled', 'A', 'B', now(), now() + interval '1 day', now() + interval '1 day 10 minutes', \(note))
                """)
        }
    }

    @Test func failedListsParkedDeliveriesAndReplayUnparksThem() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        try await Self.ride(db, note: "one")
        try await Self.ride(db, note: "two")
        try await db.pool.withConnection { conn in
            try conn.execute("UPDATE deliveries SET attempts = 8, parked_at = now(), last_error = 'HTTP 503' WHERE sink = 'webhook'")
        }
        var result = try await cli.run("events", "failed")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("HTTP 503"))
        #expect(result.stdout.split(separator: "\n").count == 4)  // header, rule, two deliveries
        let listed = try #require(try cli.json(try await cli.run("events", "failed", "--json")) as? [[String: Any]])
        let first = try #require(listed.first?["event_id"] as? Int)

        result = try await cli.run("events", "replay", String(first), "--as", "Dee")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("replaying 1 delivery"))
        #expect((try cli.json(try await cli.run("events", "failed", "--json")) as? [Any])?.count == 1)
        result = try await cli.run("events", "replay", "--all")
        #expect(result.stdout.contains("replaying 1 delivery"))
        result = try await cli.run("events", "replay", "--all")
        #expect(result.status != 0)
        #expect(result.stderr.contains("no parked deliveries"))
        #expect(try await cli.run("events", "replay").status != 0)  // an id or --all
        let due = try await db.pool.withConnection { conn in
            try conn.query("SELECT count(*) FROM deliveries WHERE sink = 'webhook' AND parked_at IS NULL AND attempts = 0").first!.decode(
                Int.self, at: 0)
        }
        #expect(due == 2)
        await db.close()
        cli.cleanUp()
    }

    @Test func watchShowsEventsLiveCatchesUpWithSinceAndStopsOnCtrlC() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        try await Self.ride(db, note: "before")
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["watch", "--since", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = cli.databaseURL
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let lines = Mutex<[String]>([])
        out.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            lines.withLock { $0 += text.split(separator: "\n").map(String.init) }
        }
        try process.run()
        func waitFor(_ count: Int) async throws {
            try await withTimeout(seconds: 120) {
                while lines.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(20)) }
            }
        }
        // The event before it started, from --since 0: printed after LISTEN is in place, so the
        // next ride can only reach it live.
        try await waitFor(1)
        try await Self.ride(db, note: "after")
        try await waitFor(2)
        let seen = lines.withLock { $0 }
        #expect(seen.allSatisfy { $0.contains(" created ride ") && $0.contains("ann1") })
        process.interrupt()  // Ctrl-C
        let status = try await withTimeout(seconds: 120) {
            while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
            return process.terminationStatus
        }
        out.fileHandleForReading.readabilityHandler = nil
        #expect(status == 0)
        await db.close()
        cli.cleanUp()
    }
}
