import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// `GET /v1/rides?scope=upcoming` answered from memory (VAND_READ_CACHE_MB) on the real router
/// and database: the same bytes as the database's answer, never one a change made old — the
/// rider's own booking at once, another writer's change once its notification arrives.
@Suite("Upcoming rides answered from memory until the database says they changed")
struct RidePageCacheTests {
    static func answers(_ metrics: VandMetrics, from: String) -> Int {
        let prefix = "vand_ride_list_answers_total{from=\"\(from)\"} "
        return metrics.render().split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    static func ids(_ page: (status: HTTPResponse.Status, body: [String: Any], raw: String)) -> [String] {
        (page.body["rides"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// Waits for `rider`'s change (others' may come first), as the notification arrives.
    static func change(of rider: String, in changes: AsyncStream<RiderReadCache<ByteBuffer>.Change>) async throws {
        let netID = try NetID(rider)
        try await withTimeout(seconds: 120) {
            for await change in changes where change == .rider(netID) { return }
        }
    }

    @Test func theSameBytesFromMemoryAndNothingAChangeMadeOld() async throws {
        let w = try await BookingWorld(vans: 2)
        let metrics = VandMetrics()
        let pages = RiderReadCache<ByteBuffer>(budget: 1 << 20)
        let changes = pages.changes()
        let router = buildRoutes(configuration: w.f.configuration, database: w.f.database, clock: w.f.clock, metrics: metrics, pages: pages)
        try await w.f.application(router).test(.router) { client in
            // Nothing is kept until LISTEN is in place (the listener runs beside the server).
            try await withTimeout(seconds: 120) { for await change in changes where change == .listening { return } }
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            let annBooked = pages.changes(), bobBooked = pages.changes()
            var body = RideRoutesTests.sclToDavenport
            let first = try #require(try await client.book(ann, body).body["id"] as? String)
            body["pickup_at"] = "2026-11-30T18:00"
            _ = try await client.book(bob, body)
            // The bookings' own notifications, seen before the reads below, so none of them races a
            // read and refuses its store (which is right, and would make the counts below vary).
            try await Self.change(of: "ann1", in: annBooked)
            try await Self.change(of: "bob2", in: bobBooked)
            let upcoming = "/v1/rides?scope=upcoming"
            let fromDatabase = try await client.get(upcoming, ann)
            #expect(Self.answers(metrics, from: "memory") == 0)
            let fromMemory = try await client.get(upcoming, ann)
            #expect(Self.answers(metrics, from: "memory") == 1)
            #expect(fromMemory.status == .ok && fromMemory.raw == fromDatabase.raw)
            #expect(Self.ids(fromMemory) == [first])
            // Only the page asked for, and only upcoming pages.
            #expect(Self.ids(try await client.get("/v1/rides?scope=upcoming&limit=1", ann)) == [first])
            _ = try await client.get("/v1/rides?scope=past", ann)
            #expect(Self.answers(metrics, from: "memory") == 1)

            // Her own booking: the next read has it, with no notification awaited.
            body["pickup_at"] = "2026-11-30T16:00"
            let second = try #require(try await client.book(ann, body).body["id"] as? String)
            #expect(Self.ids(try await client.get(upcoming, ann)) == [first, second])
            // Her own cancellation too.
            #expect(try await client.execute(uri: "/v1/rides/\(second)/cancel", method: .post, headers: Wire.bearer(ann)) { $0.status } == .ok)
            let afterCancel = try await client.get(upcoming, ann)
            #expect((afterCancel.body["rides"] as? [[String: Any]])?.last?["status"] as? String == "cancelled")

            // Another writer (psql, vanadmin, another node): kept until its notification arrives, then read again.
            _ = try await client.get(upcoming, bob)
            let kept = try await client.get(upcoming, bob)
            let memoryBefore = Self.answers(metrics, from: "memory")
            #expect(memoryBefore >= 2)
            #expect(Self.ids(kept).count == 1 && (kept.body["rides"] as? [[String: Any]])?.first?["note"] == nil)
            // Watched from here on: the listener runs from the start, so earlier changes of his were seen too.
            let noteChanged = pages.changes()
            try await w.f.database.pool.withConnection { try $0.execute("UPDATE rides SET note = 'ramp, please' WHERE net_id = 'bob2'") }
            try await Self.change(of: "bob2", in: noteChanged)
            let changed = try await client.get(upcoming, bob)
            #expect((changed.body["rides"] as? [[String: Any]])?.first?["note"] as? String == "ramp, please")
            #expect(Self.answers(metrics, from: "memory") == memoryBefore)
            // A session ended elsewhere is refused once that is notified, though a page was kept for it.
            _ = try await client.get(upcoming, bob)
            let sessionEnded = pages.changes()
            try await w.f.database.pool.withConnection { try $0.execute("DELETE FROM sessions WHERE net_id = 'bob2'") }
            try await Self.change(of: "bob2", in: sessionEnded)
            #expect(try await client.get(upcoming, bob).status == .unauthorized)
        }
        await w.f.close()
    }

    /// The routes without the listener of rider changes: no notification ever arrives, and the
    /// cache is told it is listening (as if they were slow to come).
    static func unnotified(_ w: BookingWorld, metrics: VandMetrics) -> (VandRoutes, RiderReadCache<ByteBuffer>) {
        let pages = RiderReadCache<ByteBuffer>(budget: 1 << 20)
        pages.listening()
        let routes = buildRoutes(configuration: w.f.configuration, database: w.f.database, clock: w.f.clock, metrics: metrics, pages: pages)
        return (VandRoutes(router: routes.router, services: routes.services.filter { !($0 is RiderChangeListener) }), pages)
    }

    /// With no notification ever arriving, the rider's own writes through the API still drop her page at once.
    @Test func herOwnWritesDropHerPageWithoutANotification() async throws {
        let w = try await BookingWorld(vans: 2)
        let metrics = VandMetrics()
        let (router, _) = Self.unnotified(w, metrics: metrics)
        try await w.f.application(router).test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            var body = RideRoutesTests.sclToDavenport
            let first = try #require(try await client.book(ann, body).body["id"] as? String)
            _ = try await client.get("/v1/rides", ann)
            #expect(Self.ids(try await client.get("/v1/rides", ann)) == [first])
            #expect(Self.answers(metrics, from: "memory") == 1)
            body["pickup_at"] = "2026-11-30T16:00"
            let second = try #require(try await client.book(ann, body).body["id"] as? String)
            #expect(Self.ids(try await client.get("/v1/rides", ann)) == [first, second])
            #expect(try await client.execute(uri: "/v1/rides/\(first)/cancel", method: .post, headers: Wire.bearer(ann)) { $0.status } == .ok)
            #expect((try await client.get("/v1/rides", ann).body["rides"] as? [[String: Any]])?.first?["status"] as? String == "cancelled")
            // A failed write drops it too (it may have written before failing).
            _ = try await client.get("/v1/rides", ann)
            let memory = Self.answers(metrics, from: "memory")
            #expect(try await client.execute(uri: "/v1/rides/\(UUID())/cancel", method: .post, headers: Wire.bearer(ann)) { $0.status } == .notFound)
            _ = try await client.get("/v1/rides", ann)
            #expect(Self.answers(metrics, from: "memory") == memory)
        }
        await w.f.close()
    }

    /// Signing out on the web drops what is kept for the rider before the sign-out answers, as
    /// `DELETE /v1/session` does: the token is refused at once, not answered from memory until
    /// the notification comes (here it never does).
    @Test func aWebSignOutDropsThePageKeptForItsTokenBeforeItAnswers() async throws {
        let w = try await BookingWorld(vans: 2)
        let metrics = VandMetrics()
        let (router, _) = Self.unnotified(w, metrics: metrics)
        try await w.f.application(router).test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let token = try #require(jar.cookies[WebSession.sessionCookie])
            _ = try await client.book(token, RideRoutesTests.sclToDavenport)
            _ = try await client.get("/v1/rides", token)
            #expect(try await client.get("/v1/rides", token).status == .ok)
            #expect(Self.answers(metrics, from: "memory") == 1)
            let home = try await client.web("/", jar: &jar)
            #expect(try await client.web("/sign-out", form: [("csrf", home.csrf ?? "")], jar: &jar).status == .seeOther)
            #expect(try await client.get("/v1/rides", token).status == .unauthorized)
            #expect(Self.answers(metrics, from: "memory") == 1)
        }
        await w.f.close()
    }

    @Test func offWithNoBudget() async throws {
        let w = try await BookingWorld()
        let metrics = VandMetrics()
        let pages = RiderReadCache<ByteBuffer>(budget: 0)
        let router = buildRoutes(configuration: w.f.configuration, database: w.f.database, clock: w.f.clock, metrics: metrics, pages: pages)
        try await w.f.application(router).test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            _ = try await client.book(ann, RideRoutesTests.sclToDavenport)
            for _ in 0..<5 { #expect(Self.ids(try await client.get("/v1/rides", ann)).count == 1) }
            #expect(Self.answers(metrics, from: "memory") == 0)
            #expect(pages.bytesKept == 0)
        }
        await w.f.close()
    }
}
