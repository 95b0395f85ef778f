import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("Webhook: signed, retried with backoff, parked, replayed; claims shared by loops")
struct WebhookDeliveryTests {
    @Test func theReceiverVerifiesTheSignatureAndGetsTheEvent() async throws {
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        let ride = try await f.insertRide(pickupIn: 90)
        let pass = try await f.loop(receiver.settings()).runOnce(now: f.now)
        #expect(pass.webhooksDelivered == 1)
        #expect(pass.local == 1)  // the log line (no rider message for `created`)
        let delivery = try #require(receiver.deliveries.first)
        #expect(receiver.deliveries.count == 1)
        #expect(delivery.signatureValid)
        #expect(delivery.kind == "created")
        #expect(delivery.body["ride_id"] == ride.uuidString.lowercased())
        #expect(delivery.body["id"] == String(delivery.eventID))
        #expect(delivery.body["ride.status"] == "pending")
        #expect(delivery.body["pickup_short"] == "SCL")
        // A tampered body or another secret does not verify.
        let body = Array(#"{"id":1}"#.utf8)
        let signature = WebhookSignature.sign(body: body, timestamp: 1_700_000_000, secret: WebhookReceiver.secret)
        #expect(WebhookSignature.verify(signature: signature, body: body, timestamp: 1_700_000_000, secret: WebhookReceiver.secret))
        #expect(
            !WebhookSignature.verify(signature: signature, body: Array(#"{"id":2}"#.utf8), timestamp: 1_700_000_000, secret: WebhookReceiver.secret))
        #expect(!WebhookSignature.verify(signature: signature, body: body, timestamp: 1_700_000_001, secret: WebhookReceiver.secret))
        #expect(!WebhookSignature.verify(signature: signature, body: body, timestamp: 1_700_000_000, secret: "another secret entirely"))
        #expect(try await f.count("SELECT count(*) FROM deliveries WHERE delivered_at IS NULL") == 0)
        receiver.stop()
        await f.db.close()
    }

    @Test func failuresBackOffThenParkThenReplaySendsIt() async throws {
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        receiver.answer(500)
        try await f.insertRide(pickupIn: 90)
        let loop = f.loop(receiver.settings(maxAttempts: 3))
        let queue = DeliveryQueue(pool: f.db.pool)
        var retryAt = f.now
        for attempt in 1...3 {
            f.clock.set(retryAt)
            let pass = try await loop.runOnce(now: f.now)
            #expect(receiver.deliveries.count == attempt)
            if attempt < 3 {
                #expect(pass.webhooksFailed == 1)
                // Backoff: 5 s doubling, with jitter between half and all of it.
                let wait = try #require(pass.nextDue).timeIntervalSince(f.now)
                let full = 5 * pow(2, Double(attempt - 1))
                #expect(wait >= full / 2 - 0.001 && wait <= full + 0.001)
                // Not due before then.
                #expect(try await loop.runOnce(now: f.now.addingTimeInterval(wait / 2)).webhooksFailed == 0)
                retryAt = f.now.addingTimeInterval(wait)
            } else {
                #expect(pass.webhooksParked == 1)
                #expect(pass.nextDue == nil)
            }
        }
        let parked = try await queue.failedWebhooks()
        #expect(parked.count == 1)
        #expect(parked.first?.attempts == 3)
        #expect(parked.first?.lastError == "HTTP 500")
        // Parked stays parked...
        f.clock.advance(by: 86_400)
        #expect(try await loop.runOnce(now: f.now).webhooksDelivered == 0)
        // ...until replayed.
        receiver.answer(204)
        #expect(try await queue.replay(eventID: parked[0].eventID, actor: "dispatcher") == 1)
        #expect(try await loop.runOnce(now: f.now).webhooksDelivered == 1)
        #expect(try await queue.failedWebhooks(includeRetrying: true).isEmpty)
        #expect(receiver.deliveries.count == 4)
        #expect(try await f.count("SELECT count(*) FROM audit_log WHERE action = 'events.replay'") == 1)
        receiver.stop()
        await f.db.close()
    }

    @Test func twoLoopsDeliver500EventsNoneTwiceNoneMissing() async throws {
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        try await f.sql(
            """
            INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at)
            SELECT gen_random_uuid(), CASE WHEN i % 2 = 0 THEN 'ann1' ELSE 'bob2' END, 'scheduled', 'A' || i, 'B', now(),
                   now() + interval '3 days' + i * interval '1 minute', now() + interval '3 days 10 minutes' + i * interval '1 minute'
            FROM generate_series(1, 500) AS i
            """)
        let a = f.loop(receiver.settings(), worker: "a"), b = f.loop(receiver.settings(), worker: "b")
        let now = f.now
        let (pa, pb) = try await (a.runOnce(now: now), b.runOnce(now: now))
        #expect(pa.webhooksDelivered + pb.webhooksDelivered == 500)
        let ids = receiver.deliveries.map(\.eventID)
        #expect(ids.count == 500)
        #expect(Set(ids).count == 500)
        #expect(receiver.deliveries.filter { !$0.signatureValid }.isEmpty)
        #expect(try await f.count("SELECT count(*) FROM deliveries WHERE delivered_at IS NULL") == 0)
        #expect(try await f.count("SELECT count(*) FROM deliveries WHERE sink = 'log' AND attempts = 1") == 500)
        receiver.stop()
        await f.db.close()
    }

    @Test func aKilledLoopsClaimIsTakenOverAfterItsLease() async throws {
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        try await f.insertRide(pickupIn: 90)
        let hanging = HangingTransport()
        let doomed = f.loop(receiver.settings(), transport: hanging, worker: "doomed")
        let now = f.now
        let task = Task { try await doomed.runOnce(now: now) }
        // Wait until the doomed loop holds the claim and is mid-POST, then kill it.
        try await withTimeout(seconds: 120) {
            while hanging.started.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        task.cancel()
        _ = try? await task.value
        #expect(try await f.count("SELECT count(*) FROM deliveries WHERE sink = 'webhook' AND claimed_by = 'doomed'") == 1)
        let survivor = f.loop(receiver.settings(), worker: "survivor")
        // While the lease runs, the delivery is not taken twice...
        #expect(try await survivor.runOnce(now: now.addingTimeInterval(30)).webhooksDelivered == 0)
        // ...after it, the survivor delivers it.
        #expect(try await survivor.runOnce(now: now.addingTimeInterval(61)).webhooksDelivered == 1)
        #expect(receiver.deliveries.count == 1)
        #expect(try await f.count("SELECT count(*) FROM deliveries WHERE delivered_at IS NULL") == 0)
        receiver.stop()
        await f.db.close()
    }

    @Test func aReceiverThatIsDownFailsTheAttemptAtOnceNotAtTheTimeout() async throws {
        let f = try await EventFixture()
        // A loopback port nobody listens on: bound, read, closed.
        let socket = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(socket.localAddress?.port)
        try await socket.close()
        var settings = EventSettings()
        settings.webhookURL = "http://127.0.0.1:\(port)/hook"
        settings.webhookSecret = WebhookReceiver.secret
        settings.webhookTimeout = .seconds(600)
        try await f.insertRide(pickupIn: 90)
        // With AsyncHTTPClient's default the POST would reconnect until the 600 s deadline
        // (and this test would hang); the webhook client gives up on the refused connection.
        let loop = f.loop(settings)
        let pass = try await withTimeout(seconds: 60) { try await loop.runOnce(now: f.now) }
        #expect(pass.webhooksFailed == 1)
        let error = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT last_error FROM deliveries WHERE sink = 'webhook'").first!.decode(String.self, at: 0)
        }
        #expect(!error.contains("deadlineExceeded"))
        #expect(error.lowercased().contains("refused"), "\(error)")
        await f.db.close()
    }

    @Test func withoutAURLWebhookDeliveriesAreMarkedNotSent() async throws {
        let f = try await EventFixture()
        try await f.insertRide(pickupIn: 90)
        let pass = try await f.loop().runOnce(now: f.now)
        #expect(pass.webhooksSkipped == 1)
        #expect(
            try await f.count("SELECT count(*) FROM deliveries WHERE sink = 'webhook' AND delivered_at IS NOT NULL AND last_error LIKE 'not sent%'")
                == 1)
        await f.db.close()
    }

    @Test func theServiceWakesOnNotifyAndStopsGracefully() async throws {
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        // Without a NOTIFY the loop would not look again for an hour: only the wake can deliver in time.
        var settings = receiver.settings()
        settings.idleWake = 3_600
        let loop = TriggerLoop(pool: f.db.pool, settings: settings, timeZone: f.zone, logger: TestCluster.quietLogger)
        let running = Task { try await loop.run() }
        // Listening, and the pass that LISTEN's start woke is done: a pass that finds the ride now
        // was started by its NOTIFY.
        try await withTimeout(seconds: 120) {
            while !(loop.isListening && loop.passesDone >= 2) { try await Task.sleep(for: .milliseconds(10)) }
        }
        try await f.insertRide(pickupIn: 90)
        try await withTimeout(seconds: 120) {
            while receiver.deliveries.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        loop.stop()
        try await withTimeout(seconds: 120) { try await running.value }
        #expect(receiver.deliveries.count == 1)
        receiver.stop()
        await f.db.close()
    }
}

/// A transport whose POST never answers (until its task is cancelled): a loop stuck mid-batch.
final class HangingTransport: WebhookTransport {
    let started = Atomic<Int>(0)

    func send(_ request: WebhookRequest) async throws -> Int {
        started.add(1, ordering: .relaxed)
        try await Task.sleep(for: .seconds(3_600))
        return 204
    }
}
