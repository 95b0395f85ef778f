import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// sql/0025's triggers and ``RiderChangeListener``: every change a rider's ride list could
/// show, written with plain SQL (as psql or vanadmin would), drops that rider from the read cache.
@Suite("Rider changes reach the read cache from every writer")
struct RiderChangeListenerTests {
    @Test func everyChangeARiderCouldSeeIsNotifiedOnceAndSlidingIsNot() async throws {
        let f = try await EventFixture()
        let cache = RiderReadCache<String>(budget: 1 << 20)
        let listener = RiderChangeListener(followers: [cache], configuration: f.db.pool.configuration)
        let ann = try NetID("ann1"), bob = try NetID("bob2")
        let changes = cache.changes()
        let running = Task { try await listener.run() }
        defer { running.cancel() }
        let seen = try await withTimeout(seconds: 60) { () -> [RiderReadCache<String>.Change] in
            var next = changes.makeAsyncIterator()
            var seen: [RiderReadCache<String>.Change] = [await next.next()!]
            // A page kept for ann is dropped by her next change.
            let session = AuthenticatedSession(
                netID: ann, digest: Data([7]), mustChangePassword: false,
                expiresAt: f.now + 3_600, lastSeenAt: f.now)
            let key = RiderReadCache<String>.PageKey(limit: 20, after: nil)
            cache.store(session, key: key, value: "ann's page", bytes: 10, validUntil: nil, now: f.now, ticket: cache.ticket())
            #expect(cache.lookup(digest: session.digest, key: key, now: f.now)?.value == "ann's page")
            let ride = try await f.insertRide(pickupIn: 120)
            seen.append(await next.next()!)
            #expect(cache.lookup(digest: session.digest, key: key, now: f.now) == nil)
            // A re-plan (only planned times and updated_at: no ride event) still changes her list.
            try await f.sql(
                "UPDATE rides SET pickup_at = pickup_at, estimated_dropoff_at = estimated_dropoff_at, updated_at = \(f.now) WHERE id = \(ride)")
            seen.append(await next.next()!)
            // Several changes of one rider in one transaction: one notification.
            try await f.db.pool.withTransaction { conn in
                try conn.execute("UPDATE rides SET note = 'ramp' WHERE id = \(ride)")
                try conn.execute("UPDATE rides SET note = 'ramp, please' WHERE id = \(ride)")
            }
            try await f.insertRide(rider: "bob2", pickupIn: 300, van: 2)
            seen += [await next.next()!, await next.next()!]
            // A session sliding forward is not news; one ending is.
            try await f.sql(
                "INSERT INTO sessions (token_sha256, net_id, created_at, expires_at, last_seen_at) VALUES (\(Data(repeating: 7, count: 32)), 'ann1', \(f.now), \(f.now + 3_600), \(f.now))"
            )
            try await f.sql("UPDATE sessions SET expires_at = expires_at + interval '1 hour', last_seen_at = \(f.now + 60) WHERE net_id = 'ann1'")
            try await f.sql("UPDATE rides SET note = 'bob''s' WHERE net_id = 'bob2'")
            seen.append(await next.next()!)
            try await f.sql("DELETE FROM sessions WHERE net_id = 'ann1'")
            seen.append(await next.next()!)
            // The account, then the names every ride shows.
            try await f.sql("UPDATE riders SET disabled = true WHERE net_id = 'bob2'")
            seen.append(await next.next()!)
            try await f.sql("UPDATE places SET name = name || ' Hall' WHERE name = 'Davenport College'")
            seen.append(await next.next()!)
            try await f.sql("UPDATE vans SET name = 'Van One' WHERE name = 'Van 1'")
            seen.append(await next.next()!)
            try await f.sql("DELETE FROM rides WHERE id = \(ride)")
            seen.append(await next.next()!)
            return seen
        }
        #expect(
            seen == [
                .listening, .rider(ann), .rider(ann), .rider(ann), .rider(bob), .rider(bob), .rider(ann), .rider(bob), .everyone, .everyone,
                .rider(ann),
            ])
        await f.db.close()
    }

    /// The listener is a `Service`: ``RiderChangeListener/run()`` holds `LISTEN` for as long as it
    /// runs and returns once cancelled (as its service group does), telling its followers it no
    /// longer listens; no task outlives it.
    @Test func theListenerRunsUntilCancelledAndThenStopsListening() async throws {
        let f = try await EventFixture()
        let cache = RiderReadCache<String>(budget: 1 << 20)
        let listener = RiderChangeListener(followers: [cache], configuration: f.db.pool.configuration)
        let changes = cache.changes()
        let running = Task { try await listener.run() }
        let seen = try await withTimeout(seconds: 60) { () -> [RiderReadCache<String>.Change] in
            var next = changes.makeAsyncIterator()
            let first = await next.next()!
            running.cancel()
            return [first, await next.next()!]
        }
        #expect(seen == [.listening, .lost])
        try await withTimeout(seconds: 120) { try await running.value }
        await f.db.close()
    }
}
