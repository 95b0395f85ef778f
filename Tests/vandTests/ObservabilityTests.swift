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
        let router = buildRouter(configuration: w.f.configuration, database: w.f.database, clock: w.f.clock, metrics: metrics)
        try await w.f.application(router).test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let booked = try await client.book(token, RideRoutesTests.sclToDavenport)
            #expect(booked.status == .created)
            #expect(booked.headers[.init("X-Request-Id")!]?.count == 36)
            #expect(try await client.book(try await client.token("bob2", "correct horse battery"), RideRoutesTests.sclToDavenport).status == .conflict)
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
        journal.log(event: LogEvent(level: .warning, message: "database unavailable", metadata: ["error": "down"], source: "vand", file: #file, function: #function, line: #line))
        let plain = LineLogHandler(label: "vand", journald: false) { line in lines.withLock { $0.append(line) } }
        plain.log(event: LogEvent(level: .info, message: "started", metadata: nil, source: "vand", file: #file, function: #function, line: #line))
        let written = lines.withLock { $0 }
        #expect(written[0] == "<4>warning vand: database unavailable error=down request_id=r1")
        #expect(written[1].hasSuffix(" info vand: started"))
        #expect(written[1].first?.isNumber == true)
    }
}
