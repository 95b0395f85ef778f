import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// `GET /v1/notifications/stream` (and the web app's) over a real socket: a stream ends soon
/// after its session does, whatever ends it, and a rider's oldest stream closes past the cap.
@Suite("Notification streams end with their session")
struct StreamEndingTests {
    /// ann1 has one notification (an approval), so a stream shows it has opened by sending it.
    static func world() async throws -> (BookingWorld, TriggerLoop) {
        let (w, loop) = try await NotificationRoutesTests.world()
        return (w, loop)
    }

    /// Books for ann over HTTP, approves it and delivers the notification.
    static func notifyAnn(
        _ w: BookingWorld, _ loop: TriggerLoop, client: some TestClientProtocol, token: String, at time: String = "2026-11-30T15:00"
    ) async throws {
        var body = RideRoutesTests.sclToDavenport
        body["pickup_at"] = time
        #expect(try await client.book(token, body).status == .created)
        try await NotificationRoutesTests.decide(w, rider: "ann1", status: "approved")
        try await loop.runOnce(now: w.f.clock.now)
    }

    /// Opens a stream and waits until it sent what is there (`count` notifications), so it is open.
    static func open(_ port: Int, _ token: String, count: Int = 1, web: Bool = false) async throws -> EventStreamReader {
        let stream = try await EventStreamReader.open(port: port, token: token, lastEventID: nil, web: web)
        _ = try await stream.waitFor(count: count)
        return stream
    }

    /// Expects `stream` to end because its session ended. Nothing else would end it within the
    /// reader's 30 s guard (the idle timeout is 75 s); how soon it ends is a latency riders feel,
    /// measured by `scripts/faults` (part h), never here.
    static func expectEnded(_ stream: EventStreamReader, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await stream.waitForEnd() == "session_ended", sourceLocation: sourceLocation)
    }

    @Test func aStreamEndsAfterSignOutOnTheAPIAndTheRidersOtherStreamStaysOpen() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            let first = try await client.token("ann1", "correct horse battery")
            let second = try await client.token("ann1", "correct horse battery")
            try await Self.notifyAnn(w, loop, client: client, token: first)
            let signedOut = try await Self.open(port, first)
            let other = try await Self.open(port, second)
            #expect(try await client.execute(uri: "/v1/session", method: .delete, headers: Wire.bearer(first)) { $0.status } == .noContent)
            try await Self.expectEnded(signedOut)
            // The other session's stream still delivers.
            try await Self.notifyAnn(w, loop, client: client, token: second, at: "2026-11-30T17:00")
            #expect(try await other.waitFor(count: 2).count == 2)
            #expect(!other.hasEnded)
            other.close()
        }
        await w.f.close()
    }

    /// Two vand nodes on one database: a sign-out on one ends the stream held open on the other
    /// (the `vand_rider_changes` notification reaches every node).
    @Test func aSignOutOnOneNodeEndsTheStreamOnAnother() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.live) { nodeA in
            try await w.f.application().test(.live) { nodeB in
                let portB = try #require(nodeB.port)
                let token = try await nodeA.token("ann1", "correct horse battery")
                try await Self.notifyAnn(w, loop, client: nodeA, token: token)
                let stream = try await Self.open(portB, token)
                #expect(try await nodeA.execute(uri: "/v1/session", method: .delete, headers: Wire.bearer(token)) { $0.status } == .noContent)
                try await Self.expectEnded(stream)
            }
        }
        await w.f.close()
    }

    @Test func aStreamEndsAfterAPasswordChangeFromAnotherSession() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            let phone = try await client.token("ann1", "correct horse battery")
            let laptop = try await client.token("ann1", "correct horse battery")
            try await Self.notifyAnn(w, loop, client: client, token: phone)
            let stream = try await Self.open(port, phone)
            let changed = try await client.execute(
                uri: "/v1/password", method: .post, headers: Wire.bearer(laptop),
                body: Wire.body(["current": "correct horse battery", "new": "a new horse battery"])
            ) { $0.status }
            #expect(changed == .noContent)
            try await Self.expectEnded(stream)
            // The session that changed it keeps its stream.
            let kept = try await Self.open(port, laptop)
            #expect(!kept.hasEnded)
            kept.close()
        }
        await w.f.close()
    }

    @Test func streamsEndWhenTheAccountIsDisabledBySQLOrByTheDispatcher() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            try await Self.notifyAnn(w, loop, client: client, token: ann)
            var bobRide = RideRoutesTests.sclToDavenport
            bobRide["pickup_at"] = "2026-11-30T18:00"
            #expect(try await client.book(bob, bobRide).status == .created)
            try await NotificationRoutesTests.decide(w, rider: "bob2", status: "approved")
            try await loop.runOnce(now: w.f.clock.now)
            let annStream = try await Self.open(port, ann)
            let bobStream = try await Self.open(port, bob)
            // psql, as an operator would.
            try await w.f.database.pool.withConnection { try $0.execute("UPDATE riders SET disabled = true WHERE net_id = 'ann1'") }
            try await Self.expectEnded(annStream)
            #expect(!bobStream.hasEnded)
            // vanadmin riders disable (the same service).
            _ = try await w.f.riders.disable(try NetID("bob2"), reason: "moved away", actor: "office")
            try await Self.expectEnded(bobStream)
        }
        await w.f.close()
    }

    @Test func theWebAppsStreamEndsAfterSignOutOnTheWeb() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let token = try #require(jar.cookies[WebSession.sessionCookie])
            try await Self.notifyAnn(w, loop, client: client, token: token)
            let stream = try await Self.open(port, token, web: true)
            let home = try await client.web("/", jar: &jar)
            #expect(try await client.web("/sign-out", form: [("csrf", home.csrf ?? "")], jar: &jar).status == .seeOther)
            try await Self.expectEnded(stream)
        }
        await w.f.close()
    }

    /// No write ends an idle session: the clock does. The stream's check at its session's end
    /// reads the session again, so one that was used (and slid) meanwhile stays open.
    @Test func aStreamEndsWhenItsSessionExpiresByTheInjectedClock() async throws {
        let (w, loop) = try await Self.world()
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            let idle = try await client.token("ann1", "correct horse battery")
            let used = try await client.token("ann1", "correct horse battery")
            try await Self.notifyAnn(w, loop, client: client, token: idle)
            let idleStream = try await Self.open(port, idle)
            let usedStream = try await Self.open(port, used)
            let lifetime = w.f.configuration.accounts.sessionIdleTimeout
            w.f.clock.advance(by: lifetime - 3_600)
            #expect(try await client.get("/v1/me", used).status == .ok)  // slides `used` by another lifetime
            #expect(!idleStream.hasEnded)
            w.f.clock.advance(by: 3_601)
            #expect(try await idleStream.waitForEnd() == "session_ended")
            // The used session's stream was checked at the same end and stays: it still delivers.
            try await w.f.database.pool.withConnection { conn in
                try conn.execute("UPDATE rides SET status = 'cancelled', cancelled_by = 'service', reason = 'snow' WHERE net_id = 'ann1'")
            }
            try await loop.runOnce(now: w.f.clock.now)
            #expect(try await usedStream.waitFor(count: 2).count == 2)
            #expect(!usedStream.hasEnded)
            usedStream.close()
        }
        await w.f.close()
    }

    @Test func pastTheCapTheRidersOldestStreamCloses() async throws {
        let (w, loop) = try await Self.world()
        var configuration = w.f.configuration
        configuration.accounts.streamsPerRider = 2
        let routes = buildRoutes(configuration: configuration, database: w.f.database, clock: w.f.clock)
        try await w.f.application(routes).test(.live) { client in
            let port = try #require(client.port)
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            try await Self.notifyAnn(w, loop, client: client, token: ann)
            var bobRide = RideRoutesTests.sclToDavenport
            bobRide["pickup_at"] = "2026-11-30T18:00"
            #expect(try await client.book(bob, bobRide).status == .created)
            try await NotificationRoutesTests.decide(w, rider: "bob2", status: "approved")
            try await loop.runOnce(now: w.f.clock.now)
            let bobStream = try await Self.open(port, bob)
            let oldest = try await Self.open(port, ann)
            let middle = try await Self.open(port, ann)
            #expect(!oldest.hasEnded)
            let newest = try await Self.open(port, ann)
            #expect(try await oldest.waitForEnd() == "too_many_streams")
            // The two newest of hers, and his, still deliver.
            try await Self.notifyAnn(w, loop, client: client, token: ann, at: "2026-11-30T17:00")
            #expect(try await middle.waitFor(count: 2).count == 2)
            #expect(try await newest.waitFor(count: 2).count == 2)
            #expect(!middle.hasEnded && !newest.hasEnded && !bobStream.hasEnded)
            for stream in [middle, newest, bobStream] { stream.close() }
        }
        await w.f.close()
    }

    /// Issue 33, item 1: a stream ended past the cap closes its connection, so one account cannot
    /// hold sockets by opening streams. The idle timeout here is 10 minutes, so a close within the
    /// raw reader's 30 s is the stream's end, not the timeout (before, the body ended and the
    /// connection stayed open for the keep-alive).
    @Test func aStreamEndedPastTheCapClosesItsConnection() async throws {
        let (w, loop) = try await Self.world()
        var configuration = w.f.configuration
        configuration.accounts.streamsPerRider = 2
        configuration.connections.idleTimeout = .seconds(600)
        let app = buildApplication(configuration: configuration, database: w.f.database, logger: TestCluster.quietLogger, clock: w.f.clock)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let ann = try await client.token("ann1", "correct horse battery")
            try await Self.notifyAnn(w, loop, client: client, token: ann)
            let oldest = try RawConnection(port: port)
            oldest.send("GET /v1/notifications/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ann)\r\nAccept: text/event-stream\r\n\r\n")
            let head = await oldest.read(until: "event: notification")
            #expect(head.hasPrefix("HTTP/1.1 200") && head.lowercased().contains("connection: close\r\n"), "\(head)")
            let newer = try await [Self.open(port, ann), Self.open(port, ann)]
            let end = await oldest.readToEnd()
            #expect(end.text.contains("too_many_streams"), "\(end.text)")
            #expect(end.closed, "the connection stayed open after its stream ended")
            #expect(newer.allSatisfy { !$0.hasEnded })
            for stream in newer { stream.close() }
        }
        await w.f.close()
    }
}
