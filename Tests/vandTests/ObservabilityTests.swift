import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

@Suite("Request ids, metrics and log lines")
struct ObservabilityTests {
    @Test func everyAnswerCarriesARequestIDAndMetricsCountRoutesAndBookings() async throws {
        let w = try await BookingWorld()
        let metrics = VandMetrics()
        let router = buildRoutes(configuration: w.f.configuration, database: w.f.database, clock: w.f.clock, metrics: metrics)
        try await w.f.application(router).test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let booked = try await client.book(token, RideRoutesTests.sclToDavenport)
            #expect(booked.status == .created)
            // The process's 8 random hex digits, a dash, and its counter: a new id per request.
            let first = try #require(booked.headers[.init("X-Request-Id")!])
            #expect(first.wholeMatch(of: #/[0-9a-f]{8}-[0-9a-f]{12}/#) != nil, "\(first)")
            let refused = try await client.book(try await client.token("bob2", "correct horse battery"), RideRoutesTests.sclToDavenport)
            #expect(refused.status == .conflict)
            let second = try #require(refused.headers[.init("X-Request-Id")!])
            #expect(second != first && second.prefix(9) == first.prefix(9))
            try await client.execute(uri: "/v1/nowhere", method: .get, headers: [.init("X-Request-Id")!: "trace-abc-123"]) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.init("X-Request-Id")!] == "trace-abc-123")
            }
            let text = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            #expect(text.contains(#"vand_http_requests_total{method="POST",route="/v1/rides",status="201"} 1"#))
            #expect(text.contains(#"vand_http_requests_total{method="POST",route="/v1/rides",status="409"} 1"#))
            #expect(text.contains("vand_http_request_duration_seconds_bucket"))
            #expect(text.contains("vand_bookings_total 1"))
            #expect(text.contains(#"vand_bookings_refused_total{reason="occupied"} 1"#))
            #expect(text.contains("vand_db_pool_open_connections"))
            #expect(text.contains("vand_events_waiting"))
            #expect(text.contains("vand_reminder_lag_max_1h_seconds"))
        }
        await w.f.close()
    }

    @Test func underJournaldLinesStartWithThePriorityAndHaveNoTime() {
        let lines = Mutex<[String]>([])
        var journal = LineLogHandler(label: "vand", journald: true) { line in lines.withLock { $0.append(line) } }
        journal[metadataKey: "request_id"] = "r1"
        journal.log(
            event: LogEvent(
                level: .warning, message: "database unavailable", metadata: ["error": "down"], source: "vand", file: #file, function: #function,
                line: #line))
        let plain = LineLogHandler(label: "vand", journald: false) { line in lines.withLock { $0.append(line) } }
        plain.log(event: LogEvent(level: .info, message: "started", metadata: nil, source: "vand", file: #file, function: #function, line: #line))
        let written = lines.withLock { $0 }
        #expect(written[0] == "<4>warning vand: database unavailable error=down request_id=r1")
        #expect(written[1].hasSuffix(" info vand: started"))
        #expect(written[1].first?.isNumber == true)
    }

    @Test func aMultiLineLibpqErrorStaysOneLineAndKeepsItsPriority() async throws {
        // A real libpq error: "connection to server on socket … failed: …\n\tIs the server running locally …?"
        let pool = PGPool(configuration: PGConfiguration(connectionString: "host=/nonexistent-vand-socket dbname=vand user=postgres"), size: 1)
        let error = try await #require(throws: PGError.self) { try await pool.withConnection { try $0.query("SELECT 1") } }
        await pool.shutdown()
        #expect("\(error)".contains("\n"), "expected libpq's message to span lines: \(error)")
        let output = Mutex("")
        let handler = LineLogHandler(label: "vand", journald: true) { line in output.withLock { $0 += line + "\n" } }
        handler.log(
            event: LogEvent(
                level: .error, message: "cannot start: \(error)\nforged line\u{2028}",
                metadata: ["error": "\(error)", "key\nforged": "v\r\u{1b}[31m\\"],
                source: "vand", file: #file, function: #function, line: #line
            ))
        let written = output.withLock { $0 }
        let lines = written.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one record, one line: \(written)")
        #expect(written.hasPrefix("<3>error vand: cannot start: could not connect to PostgreSQL: "))
        #expect(!lines[0].unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" })
        #expect(lines[0].contains(#"\n\tIs the server running"#))
        #expect(lines[0].hasSuffix(#" key\nforged=v\r\u{1b}[31m\\"#))
    }
}
