import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Synchronization
import VanServices
import VanPostgres

/// `vand-bench events [count]`: from the commit of a ride change to the webhook's arrival at
/// a local receiver (p50/p99 over `count` changes, one after another), then how late reminders
/// fire after their due time. Uses DATABASE_URL, else a throwaway embedded cluster.
struct EventsBenchmark {
    let count: Int

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let (database, cleanUp) = try await openDatabase(logger: logger)
        defer { cleanUp() }
        let receiver = Receiver(secret: "bench-secret-0123456789")
        let (app, port) = try await receiver.start(logger: logger)
        var configured = EventSettings()
        configured.webhookURL = "http://127.0.0.1:\(port)/hook"
        configured.webhookSecret = receiver.secret
        configured.reminderLead = 15 * 60
        let settings = configured
        let loop = TriggerLoop(pool: database.pool, settings: settings, timeZone: TimeZone(identifier: "America/New_York")!, logger: logger)
        let loopTask = Task { try await loop.run() }
        try await Task.sleep(for: .milliseconds(300))  // LISTEN in place

        // 1. Commit → webhook arrival.
        let rideID = UUID()
        try await database.pool.withConnection { conn in
            try conn.execute("INSERT INTO riders (net_id, password_hash) VALUES ('bench1', 'x') ON CONFLICT DO NOTHING")
            try conn.execute(
                """
                INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at)
                VALUES (\(rideID), 'bench1', 'scheduled', 'A', 'B', now(), now() + interval '2 days', now() + interval '2 days 10 minutes')
                """)
        }
        try await Task.sleep(for: .milliseconds(200))
        var committed: [String: ContinuousClock.Instant] = [:]
        for index in 0..<count {
            let note = "bench-\(index)"
            let start = ContinuousClock.now
            try await database.pool.withConnection { conn in
                try conn.execute("UPDATE rides SET note = \(note) WHERE id = \(rideID)")
            }
            committed[note] = start
            try await Task.sleep(for: .milliseconds(3))
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while receiver.arrivedCount(prefix: "bench-") < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let arrivals = receiver.arrivals()
        let latencies = committed.compactMap { note, start in arrivals[note].map { max(0, seconds(start, $0)) } }.sorted()
        print("trigger latency: commit of a ride change → signed webhook at a local receiver (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        print("  events \(count), arrived \(latencies.count), bad signatures \(receiver.badSignatures), duplicates \(receiver.duplicates)")
        if !latencies.isEmpty {
            print(
                String(
                    format: "  p50 %.2f ms   p90 %.2f ms   p99 %.2f ms   max %.2f ms",
                    percentile(latencies, 0.5) * 1_000, percentile(latencies, 0.9) * 1_000,
                    percentile(latencies, 0.99) * 1_000, latencies.last! * 1_000))
        }

        // 2. Reminders: approved rides whose reminder falls due 1–3 s from now.
        let reminders = 20
        let now = SystemTimeSource().now
        let due = try await database.pool.withConnection { conn -> [UUID: Date] in
            var due: [UUID: Date] = [:]
            for index in 0..<reminders {
                let id = UUID()
                let pickup = now.addingTimeInterval(settings.reminderLead + 1 + Double(index) * 0.1)
                try conn.execute(
                    """
                    INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at, status)
                    VALUES (\(id), 'bench1', 'scheduled', 'A', 'B', \(now), \(pickup), \(pickup.addingTimeInterval(600)), 'approved')
                    """)
                due[id] = pickup.addingTimeInterval(-settings.reminderLead)
            }
            return due
        }
        let reminderDeadline = ContinuousClock.now + .seconds(10)
        while receiver.reminders().count < reminders, ContinuousClock.now < reminderDeadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let late = receiver.reminders().compactMap { id, arrived in due[id].map { arrived.timeIntervalSince($0) } }.sorted()
        print("reminders: webhook arrival after the due time (pickup − 15 min), \(late.count) of \(reminders)")
        if !late.isEmpty {
            print(String(format: "  p50 %.1f ms   max %.1f ms", percentile(late, 0.5) * 1_000, late.last! * 1_000))
        }
        loop.stop()
        _ = try? await loopTask.value
        app.cancel()
        await database.close()
    }

    private func openDatabase(logger: Logger) async throws -> (Database, @Sendable () -> Void) {
        let sql = VandPaths.migrations()
        if let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty {
            let database = Database(pool: PGPool(configuration: PGConfiguration(connectionString: url), size: 4, logger: logger))
            _ = try await MigrationRunner(directory: sql, logger: logger).migrate(pool: database.pool)
            return (database, {})
        }
        let cluster = EmbeddedPostgres(
            directory: "/tmp/vand-bench-\(ProcessInfo.processInfo.processIdentifier)", ephemeral: true, port: 55_432, logger: logger)
        try await NIOThreadPool.singleton.runIfActive {
            try cluster.start()
            try cluster.createDatabase("bench")
        }
        let database = Database(
            pool: PGPool(configuration: PGConfiguration(connectionString: cluster.connectionString(database: "bench")), size: 4, logger: logger))
        _ = try await MigrationRunner(directory: sql, logger: logger).migrate(pool: database.pool)
        return (
            database,
            {
                try? cluster.forceStop(mode: "fast")
                try? FileManager.default.removeItem(atPath: cluster.directory)
            }
        )
    }
}

private func seconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Double {
    let duration = to - from
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

private func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// A webhook receiver on 127.0.0.1, port 0: verifies signatures, records arrivals.
final class Receiver: Sendable {
    let secret: String
    private struct State {
        var arrivals: [String: ContinuousClock.Instant] = [:]
        var reminders: [UUID: Date] = [:]
        var seen: Set<String> = []
        var badSignatures = 0
        var duplicates = 0
    }
    private let state = Mutex(State())

    init(secret: String) { self.secret = secret }

    var badSignatures: Int { state.withLock { $0.badSignatures } }
    var duplicates: Int { state.withLock { $0.duplicates } }
    func arrivals() -> [String: ContinuousClock.Instant] { state.withLock { $0.arrivals } }
    func reminders() -> [UUID: Date] { state.withLock { $0.reminders } }
    func arrivedCount(prefix: String) -> Int { state.withLock { $0.arrivals.keys.filter { $0.hasPrefix(prefix) }.count } }

    func record(headers: HTTPFields, body: ByteBuffer) {
        let arrived = ContinuousClock.now
        let wall = SystemTimeSource().now
        let bytes = Array(body.readableBytesView)
        let timestamp = headers[.init("X-Vand-Timestamp")!].flatMap(Int.init) ?? 0
        let signature = headers[.init("X-Vand-Signature")!] ?? ""
        let eventID = headers[.init("X-Vand-Event-Id")!] ?? ""
        let ok = WebhookSignature.verify(signature: signature, body: bytes, timestamp: timestamp, secret: secret)
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        let ride = object["ride"] as? [String: Any] ?? [:]
        state.withLock { state in
            if !ok { state.badSignatures += 1 }
            if !state.seen.insert(eventID).inserted { state.duplicates += 1 }
            if let note = ride["note"] as? String, state.arrivals[note] == nil { state.arrivals[note] = arrived }
            if object["kind"] as? String == "reminder", let id = (object["ride_id"] as? String).flatMap(UUID.init(uuidString:)) {
                state.reminders[id] = wall
            }
        }
    }

    /// Starts the receiver; returns its task and port.
    func start(logger: Logger) async throws -> (Task<Void, any Error>, Int) {
        let router = Router()
        router.post("hook") { [self] request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            record(headers: request.headers, body: body)
            return .noContent
        }
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: {
                var quiet = logger; quiet.logLevel = .critical; return quiet
            }()
        )
        let task = Task { try await app.run() }
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw CancellationError() }
        return (task, port)
    }
}
