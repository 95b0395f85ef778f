import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import VanPostgres
import VanServices

/// `vand-bench fanout`: live ETAs from the road to riders' streams. Against a running vand (PORT)
/// on DATABASE_URL, prepared by scripts/bench-fanout (vans with open shifts, one approved ride per
/// rider inside the ETA lead, a session token per rider in TOKENS, line n for rider `fan<n>`): holds
/// one notification stream per rider, then every van posts a position every INTERVAL seconds
/// (staggered over the interval) for SECONDS, and each rider's first `eta` event after her van's
/// position counts: latency from the position's commit to the event read off her stream.
struct FanoutBenchmark {
    static let usage = "usage: vand-bench fanout PORT TOKENS [--seconds S, default 60] [--interval S, default 5]"

    let port: Int
    let tokens: [String]
    var seconds: Double = 60
    var interval: Double = 5

    init(arguments: [String]) throws {
        guard arguments.count >= 2, let port = Int(arguments[0]) else { throw BenchUsage(Self.usage) }
        self.port = port
        tokens = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").map(String.init)
        var rest = arguments.dropFirst(2)
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap(Double.init) else { throw BenchUsage(Self.usage) }
            switch flag {
            case "--seconds": seconds = value
            case "--interval": interval = value
            default: throw BenchUsage(Self.usage)
            }
        }
    }

    /// The positions written: per van, the round and when its commit returned.
    final class Rounds: Sendable {
        struct Write { var round: Int; var at: ContinuousClock.Instant }
        let writes = Mutex<[Int64: Write]>([:])
        /// Per ride: the last round counted.
        let seen = Mutex<[String: Int]>([:])
        let latencies = Mutex<[Double]>([])
        let events = Atomic<Int>(0)
        /// Streams answered 200.
        let opened = Atomic<Int>(0)
        /// The first refusal or error opening a stream.
        let failure = Mutex<String?>(nil)

        /// An `eta` event for `ride` on `van` read now.
        func received(ride: String, van: Int64) {
            let now = ContinuousClock.now
            events.add(1, ordering: .relaxed)
            guard let write = writes.withLock({ $0[van] }) else { return }
            let counted = seen.withLock { seen -> Bool in
                guard (seen[ride] ?? 0) < write.round else { return false }
                seen[ride] = write.round
                return true
            }
            if counted { latencies.withLock { $0.append((now - write.at).seconds) } }
        }
    }

    func run() async throws -> Bool {
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"] else { throw BenchUsage("DATABASE_URL must name vand's database") }
        let pool = PGPool(configuration: PGConfiguration(connectionString: url), size: 4, logger: logger)
        // Rider n's ride and van.
        let rides = try await pool.withConnection { conn in
            try conn.query("SELECT net_id, lower(id::text) AS ride_id, van_id FROM rides WHERE net_id LIKE 'fan%' AND status = 'approved'").map {
                (try $0.decode(String.self, "net_id"), try $0.decode(String.self, "ride_id"), try $0.decode(Int64.self, "van_id"))
            }
        }
        var vanOfRide: [String: Int64] = [:]
        for (_, ride, van) in rides { vanOfRide[ride] = van }
        let vans = Array(Set(vanOfRide.values)).sorted()
        let rounds = Rounds()
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(600), concurrentHTTP1ConnectionsPerHostSoftLimit: tokens.count + 16)
        configuration.timeout = .init(connect: .seconds(30), read: .seconds(600))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let lookup = vanOfRide
        let streams = Task {
            await withTaskGroup(of: Void.self) { group in
                for token in tokens {
                    group.addTask {
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/notifications/stream")
                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                        let response: HTTPClientResponse
                        do {
                            response = try await client.execute(request, timeout: .seconds(3_600))
                        } catch {
                            rounds.failure.withLock { $0 = $0 ?? "\(error)" }
                            return
                        }
                        guard response.status == .ok else {
                            rounds.failure.withLock { $0 = $0 ?? "HTTP \(response.status.code)" }
                            return
                        }
                        rounds.opened.add(1, ordering: .relaxed)
                        var buffer = ""
                        do {
                            for try await chunk in response.body {
                                buffer += String(buffer: chunk)
                                while let end = buffer.range(of: "\n\n") {
                                    let block = buffer[..<end.lowerBound]
                                    if block.hasPrefix("event: eta\ndata: "), let ride = Self.rideID(in: block), let van = lookup[ride] {
                                        rounds.received(ride: ride, van: van)
                                    }
                                    buffer.removeSubrange(..<end.upperBound)
                                }
                            }
                        } catch {}
                    }
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while rounds.opened.load(ordering: .relaxed) < tokens.count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let open = rounds.opened.load(ordering: .relaxed)
        print(
            "fan-out: \(open) of \(tokens.count) notification streams open on vand; \(vans.count) vans post a position every \(interval) s for \(Int(seconds)) s (\(ProcessInfo.processInfo.activeProcessorCount) cores)"
        )
        if let failure = rounds.failure.withLock({ $0 }) { print("  a stream could not open: \(failure)") }
        try await Task.sleep(for: .seconds(2))
        rounds.latencies.withLock { $0 = [] }

        // Each van every `interval` seconds, staggered evenly; a position moves a little each time.
        let start = ContinuousClock.now
        let step = interval / Double(max(1, vans.count))
        var written = 0
        var round = 0
        while (ContinuousClock.now - start).seconds < seconds {
            round += 1
            for (index, van) in vans.enumerated() {
                let due = start + .milliseconds(Int64(((Double(round - 1) * interval) + Double(index) * step) * 1_000))
                if due > ContinuousClock.now { try await Task.sleep(until: due) }
                let lat = 41.3 + Double(index) * 0.001 + Double(round) * 0.0001
                try await pool.withConnection { conn in
                    try conn.execute(
                        """
                        INSERT INTO van_positions (van_id, at, lat, lon, source) VALUES (\(van), now(), \(lat), -72.925, 'tracker')
                        ON CONFLICT (van_id) DO UPDATE SET at = EXCLUDED.at, lat = EXCLUDED.lat, lon = EXCLUDED.lon
                        """)
                }
                let at = ContinuousClock.now
                rounds.writes.withLock { $0[van] = Rounds.Write(round: round, at: at) }
                written += 1
            }
        }
        try await Task.sleep(for: .seconds(3))
        let latencies = rounds.latencies.withLock { $0 }.sorted()
        // Every rider whose van posted should hear of each of its positions.
        let riders = Dictionary(grouping: vanOfRide.keys, by: { vanOfRide[$0]! }).mapValues(\.count)
        let expected = (1...round).reduce(0) { total, _ in total + vans.reduce(0) { $0 + (riders[$1] ?? 0) } } * open / max(1, tokens.count)
        func ms(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "-" }
            return String(format: "%.0f ms", latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] * 1_000)
        }
        print(
            "  positions written \(written); eta events read \(rounds.events.load(ordering: .relaxed)); position → rider's stream counted \(latencies.count) (about \(expected) expected)"
        )
        print(
            "  latency p50 \(ms(0.5))   p90 \(ms(0.9))   p99 \(ms(0.99))   max \(latencies.last.map { String(format: "%.0f ms", $0 * 1_000) } ?? "-")"
        )
        let p99 = latencies.isEmpty ? .infinity : latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        let ok = open == tokens.count && p99 <= 1 && latencies.count * 100 >= expected * 95
        print(
            ok
                ? "  bar met: p99 ≤ 1 s, every stream open, at least 95% of the updates counted"
                : "  BAR MISSED: p99 ≤ 1 s with every stream open and at least 95% of the updates counted")
        streams.cancel()
        try await client.shutdown()
        await pool.shutdown()
        return ok
    }

    /// The ride id of an `eta` event's block.
    static func rideID(in block: Substring) -> String? {
        guard let key = block.range(of: "\"ride_id\":\"") else { return nil }
        let rest = block[key.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}

/// A benchmark's usage error: its message is the usage.
struct BenchUsage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
