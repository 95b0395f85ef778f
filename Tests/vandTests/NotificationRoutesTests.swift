import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import HummingbirdTesting
import Synchronization
import Testing
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

@Suite("Rider notifications: the inbox and the live stream, own only")
struct NotificationRoutesTests {
    /// ann1 books over HTTP; the dispatcher approves with plain SQL; bob2 has a ride too.
    static func world() async throws -> (BookingWorld, TriggerLoop) {
        let w = try await BookingWorld(vans: 2)
        let loop = TriggerLoop(
            pool: w.f.database.pool, settings: EventSettings(), timeZone: w.f.configuration.timeZone,
            clock: w.f.clock, logger: TestCluster.quietLogger)
        return (w, loop)
    }

    static func decide(_ w: BookingWorld, rider: String, status: String) async throws {
        try await w.f.database.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET status = \(status), reason = 'no van free' WHERE net_id = \(rider) AND status = 'pending'")
        }
    }

    @Test func theInboxShowsOnlyTheRidersOwnNotifications() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await client.book(ann, RideRoutesTests.sclToDavenport).status == .created)
            var bobRide = RideRoutesTests.sclToDavenport
            bobRide["pickup_at"] = "2026-11-30T18:00"
            #expect(try await client.book(bob, bobRide).status == .created)
            try await Self.decide(w, rider: "ann1", status: "approved")
            try await Self.decide(w, rider: "bob2", status: "rejected")
            try await loop.runOnce(now: w.f.clock.now)

            let annList = try await client.get("/v1/notifications", ann)
            #expect(annList.status == .ok)
            let annItems = try #require(annList.body["notifications"] as? [[String: Any]])
            #expect(annItems.map { $0["kind"] as? String } == ["approved"])
            #expect(annItems.first?["message"] as? String == "Your ride from SCL to Davenport on Mon Nov 30 at 3:00 PM is approved.")
            let bobItems = try #require(try await client.get("/v1/notifications", bob).body["notifications"] as? [[String: Any]])
            #expect(bobItems.map { $0["kind"] as? String } == ["rejected"])
            #expect((bobItems.first?["message"] as? String)?.hasSuffix("was not approved: no van free.") == true)
            // `after` pages on; a bad cursor is a 422; no login is a 401.
            let next = try #require(annList.body["next"] as? Int)
            #expect(try await client.get("/v1/notifications?after=\(next)", ann).body["notifications"] as? [Any] != nil)
            #expect((try await client.get("/v1/notifications?after=\(next)", ann).body["notifications"] as? [Any])?.isEmpty == true)
            #expect(try await client.get("/v1/notifications?after=abc", ann).status == .unprocessableContent)
            #expect(try await client.get("/v1/notifications").status == .unauthorized)
        }
        await w.f.close()
    }

    @Test func theStreamSendsOwnNotificationsLiveAndResumesAfterLastEventID() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await client.book(ann, RideRoutesTests.sclToDavenport).status == .created)
            try await Self.decide(w, rider: "ann1", status: "approved")
            try await loop.runOnce(now: w.f.clock.now)

            // Connect: what is already there comes first.
            let stream = try await EventStreamReader.open(port: port, token: ann, lastEventID: nil)
            let first = try await stream.waitFor(count: 1)
            #expect(first.map(\.kind) == ["approved"])
            // Bob's news never reaches ann; ann's next news arrives live.
            var bobRide = RideRoutesTests.sclToDavenport
            bobRide["pickup_at"] = "2026-11-30T18:00"
            #expect(try await client.book(bob, bobRide).status == .created)
            try await Self.decide(w, rider: "bob2", status: "approved")
            try await w.f.database.pool.withConnection { conn in
                try conn.execute("UPDATE rides SET status = 'cancelled', cancelled_by = 'service', reason = 'snow' WHERE net_id = 'ann1'")
            }
            try await loop.runOnce(now: w.f.clock.now)
            let both = try await stream.waitFor(count: 2)
            #expect(both.map(\.kind) == ["approved", "cancelled_by_service"])
            #expect(both[1].data.contains("The service cancelled your ride from SCL to Davenport"))
            stream.close()

            // Reconnecting with Last-Event-ID sends only what came after it.
            w.f.clock.advance(by: 60)
            try await w.f.database.pool.withConnection { conn in
                try conn.execute(
                    "UPDATE rides SET pickup_at = pickup_at + interval '30 minutes', estimated_dropoff_at = estimated_dropoff_at + interval '30 minutes', window_start = window_start + interval '30 minutes', window_end = window_end + interval '30 minutes' WHERE net_id = 'bob2'"
                )
            }
            let resumed = try await EventStreamReader.open(port: port, token: ann, lastEventID: both[0].id)
            let again = try await resumed.waitFor(count: 1)
            #expect(again.map(\.id) == [both[1].id])
            resumed.close()
            let bobStream = try await EventStreamReader.open(port: port, token: bob, lastEventID: nil)
            #expect(try await bobStream.waitFor(count: 1).map(\.kind) == ["approved"])
            bobStream.close()
        }
        await w.f.close()
    }

    /// A message holding line breaks, quotes and a `</script>` (a note a rider typed comes back in
    /// one) reaches the stream as one event whose data is the JSON of the whole message.
    @Test func aMessageWithLineBreaksAndQuotesArrivesWholeInOneEvent() async throws {
        let (w, _) = try await Self.world()
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            let ann = try await client.token("ann1", "correct horse battery")
            let message = ServerSentEventTests.awkward
            try await w.f.database.pool.withConnection { conn in
                try conn.execute("INSERT INTO notifications (net_id, kind, message) VALUES ('ann1', 'updated', \(message))")
            }
            let stream = try await EventStreamReader.open(port: port, token: ann, lastEventID: nil)
            let event = try #require(try await stream.waitFor(count: 1).first)
            let object = try ServerSentEventTests.object(event.data)
            #expect(object["message"] as? String == message)
            #expect(object["kind"] as? String == "updated" && (object["id"] as? NSNumber)?.int64Value == event.id)
            #expect(object["created_at"] is String)
            stream.close()
        }
        await w.f.close()
    }
}

/// One `eta` event's JSON, carried out of a lock.
struct ETAData: @unchecked Sendable {
    let value: [String: Any]
    init(_ value: [String: Any]) { self.value = value }
}

/// Reads a `text/event-stream` over a real HTTP connection, collecting events as they come.
final class EventStreamReader: Sendable {
    struct Event: Sendable {
        let id: Int64
        let kind: String
        let data: String
    }

    /// One event as sent: its `event:` name and its `data:`.
    struct Block: Sendable {
        let event: String
        let data: String
    }

    /// Every event with data, in order.
    private let blocks = Mutex<[Block]>([])

    private let events = Mutex<[Event]>([])
    /// The `eta` events' data, in order.
    private let etas = Mutex<[String]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The reason of the `event: closed` received, if any.
    private let closedReason = Mutex<String?>(nil)
    /// Whether the server ended the body.
    private let ended = Mutex(false)

    /// Opens the API's stream with a bearer token, or the web app's (`/notifications/stream`) with the session cookie.
    static func open(port: Int, token: String, lastEventID: Int64?, web: Bool = false) async throws -> EventStreamReader {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(web ? "" : "/v1")/notifications/stream")
        if web {
            request.headers.add(name: "Cookie", value: "\(WebSession.sessionCookie)=\(token)")
        } else {
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
        }
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: String(lastEventID)) }
        return try await open(request)
    }

    /// Opens another stream of the web app (`/dispatch/stream`) with the session cookie.
    static func open(port: Int, path: String, cookie: String) async throws -> EventStreamReader {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Cookie", value: "\(WebSession.sessionCookie)=\(cookie)")
        return try await open(request)
    }

    private static func open(_ request: HTTPClientRequest) async throws -> EventStreamReader {
        let reader = EventStreamReader()
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        guard response.status == .ok, response.headers.first(name: "content-type") == "text/event-stream" else {
            throw TestFailure("stream answered \(response.status)")
        }
        let body = response.body
        reader.task.withLock {
            $0 = Task {
                var buffer = ""
                do {
                    for try await chunk in body {
                        buffer += String(buffer: chunk)
                        while let end = buffer.range(of: "\n\n") {
                            let block = String(buffer[..<end.lowerBound])
                            buffer = String(buffer[end.upperBound...])
                            reader.parse(block)
                        }
                    }
                } catch {}
                reader.ended.withLock { $0 = true }
            }
        }
        return reader
    }

    private func parse(_ block: String) {
        var id: Int64?, kind = "message", data = ""
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("id: ") { id = Int64(line.dropFirst(4)) }
            if line.hasPrefix("event: ") { kind = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data += line.dropFirst(6) }
        }
        if !data.isEmpty { blocks.withLock { $0.append(Block(event: kind, data: data)) } }
        if kind == "closed" {
            let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
            closedReason.withLock { $0 = object["reason"] as? String ?? "?" }
        }
        if kind == "eta" { etas.withLock { $0.append(data) } }
        guard let id, kind == "notification" else { return }
        let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
        events.withLock { $0.append(Event(id: id, kind: object["kind"] as? String ?? "?", data: data)) }
    }

    /// Waits (up to 30 s, a guard against a hang) for an event of any name that `matches`.
    func waitFor(_ matches: @escaping @Sendable (Block) -> Bool) async throws -> Block {
        try await withTimeout(seconds: 120) {
            while true {
                if let found = self.blocks.withLock({ $0.first(where: matches) }) { return found }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// Waits (up to 30 s, a guard against a hang) until `count` events arrived, and returns them.
    func waitFor(count: Int) async throws -> [Event] {
        try await withTimeout(seconds: 120) {
            while true {
                let now = self.events.withLock { $0 }
                if now.count >= count { return now }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// Waits (up to 30 s, a guard against a hang) for an `eta` event that `matches`, and returns its data.
    func waitForETA(_ matches: @escaping @Sendable ([String: Any]) -> Bool) async throws -> [String: Any] {
        try await withTimeout(seconds: 120) {
            while true {
                for data in self.etas.withLock({ $0 }) {
                    let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
                    if matches(object) { return ETAData(object) }
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }.value
    }

    /// Waits (up to 30 s, a guard against a hang) until the server ends the stream; the reason its `event: closed` gave (nil: none came).
    func waitForEnd() async throws -> String? {
        try await withTimeout(seconds: 120) {
            while !self.ended.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            return self.closedReason.withLock { $0 }
        }
    }

    /// Whether the server ended the stream so far.
    var hasEnded: Bool { ended.withLock { $0 } }

    func close() { task.withLock { $0?.cancel() } }
}
