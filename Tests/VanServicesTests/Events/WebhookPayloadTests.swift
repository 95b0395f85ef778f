import Foundation
import Testing
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("The webhook payload is the documented version 1, field for field")
struct WebhookPayloadTests {
    /// The fields docs/events.md lists under "The payload, version 1".
    static func documentedFields() throws -> Set<String> {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../docs/events.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        guard let start = text.range(of: "### The payload, version 1") else { throw TestFailure("docs/events.md has no payload section") }
        var fields: Set<String> = []
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| `") else { continue }
            let name = line.dropFirst(3).prefix { $0 != "`" }
            fields.insert(String(name))
        }
        return fields
    }

    @Test func aDeliveryCarriesExactlyTheDocumentedFields() async throws {
        let documented = try Self.documentedFields()
        #expect(documented.count > 30)
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        try await f.insertRide(pickupIn: 90)
        _ = try await f.loop(receiver.settings()).runOnce(now: f.now)
        let delivery = try #require(receiver.deliveries.first)
        let sent = Set(delivery.body.keys)
        // `road` is sent only on road events (a driver's taps): RoadEventTests checks those; `late`
        // only on late events: aLateEventCarriesItsDocumentedFields.
        let roadOnly = documented.filter {
            $0 == "road" || $0.hasPrefix("road.") || $0 == "late" || $0.hasPrefix("late.") || $0 == "standing" || $0.hasPrefix("standing.")
        }
        #expect(roadOnly.count > 10)
        let expected = documented.subtracting(roadOnly)
        #expect(expected.subtracting(sent).isEmpty, "documented but not sent: \(expected.subtracting(sent).sorted())")
        #expect(sent.subtracting(documented).isEmpty, "sent but not documented: \(sent.subtracting(documented).sorted())")
        #expect(delivery.body["version"] == "1")
        receiver.stop()
        await f.db.close()
    }

    @Test func aLateEventCarriesItsDocumentedFields() async throws {
        let documented = try Self.documentedFields().filter {
            $0 != "road" && !$0.hasPrefix("road.") && $0 != "standing" && !$0.hasPrefix("standing.")  // `standing`: the no-show policy's events
        }
        let f = try await ETAFixture()
        try await f.shift()
        try await f.ride(pickupIn: 5)
        try await f.position(f.north(of: f.scl, meters: 10_000))
        let receiver = try await WebhookReceiver.start()
        try await f.feed().refresh(van: 1)
        _ = try await f.events.loop(receiver.settings()).runOnce(now: f.now)
        let late = try #require(receiver.deliveries.first { $0.kind == "late" })
        let sent = Set(late.body.keys)
        #expect(documented.subtracting(sent).isEmpty, "documented but not sent: \(documented.subtracting(sent).sorted())")
        #expect(sent.subtracting(documented).isEmpty, "sent but not documented: \(sent.subtracting(documented).sorted())")
        #expect(late.body["late.late_minutes"] == "19")
        #expect(late.body["late.stop"] == "pickup")
        receiver.stop()
        await f.db.close()
    }
}
