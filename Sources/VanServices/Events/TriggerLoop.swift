import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import VanPostgres

/// What one pass of the loop did.
public struct TriggerLoopPass: Sendable, Hashable {
    /// Rides reminded.
    public var reminded = 0
    /// Inbox and log deliveries done.
    public var local = 0
    /// Webhooks delivered.
    public var webhooksDelivered = 0
    /// Webhook attempts that failed (and will be retried).
    public var webhooksFailed = 0
    /// Webhook deliveries parked after their last attempt.
    public var webhooksParked = 0
    /// Webhook deliveries marked not sent (no URL configured).
    public var webhooksSkipped = 0
    /// Suspensions the no-show policy proposed (notices sent).
    public var notices = 0
    /// Rides cancelled because a suspension started.
    public var suspensionCancels = 0
    /// The next time something falls due that the loop knows of (nil: nothing waits).
    public var nextDue: Date?
}

/// The trigger loop (the paper's Lambda triggers): fires reminders and delivers
/// ride events to their sinks. Run it as a swift-service-lifecycle `Service`
/// (``run()``), or drive ``runOnce(now:)`` step by step (tests, with a manual clock).
///
/// It wakes on `LISTEN vand_ride_events` and at the next due time it knows of
/// (the next reminder or retry). Any number of loops may share one database:
/// reminders are claimed and marked in one statement, inbox and log deliveries in
/// one transaction, and webhooks are leased, all with `FOR UPDATE SKIP LOCKED`.
public final class TriggerLoop: Service, Sendable {
    /// This loop's name in `deliveries.claimed_by`.
    public let workerID: String
    let pool: PGPool
    let settings: EventSettings
    let clock: any TimeSource
    let transport: any WebhookTransport
    let logger: Logger
    let queue: DeliveryQueue
    let reminders: Reminders
    let local: LocalSinks
    let backoff: Backoff
    let metrics: VandMetrics?
    let standing: NoShowStanding?
    private let wake = WakeSignal()
    private let stopping = Atomic<Bool>(false)
    private let listening = Atomic<Bool>(false)

    private let passes = Atomic<Int>(0)

    /// Whether `LISTEN` is in place now, so a new ride event wakes a pass at once.
    public var isListening: Bool { listening.load(ordering: .relaxed) }

    /// Passes ``run()`` finished (or failed) so far. The first runs at once; `LISTEN` in place
    /// wakes another, so once two are done with ``isListening`` true, only a NOTIFY (or the next
    /// due time) starts a third.
    public var passesDone: Int { passes.load(ordering: .relaxed) }

    /// A loop on `pool`. Times come from `clock`; rider messages are written in `timeZone` and
    /// name `hotline` where the rider should call the office.
    public init(
        pool: PGPool,
        settings: EventSettings,
        timeZone: TimeZone,
        hotline: String? = nil,
        clock: any TimeSource = SystemTimeSource(),
        transport: any WebhookTransport = HTTPWebhookTransport(),
        workerID: String? = nil,
        logger: Logger = Logger(label: "vand.events"),
        metrics: VandMetrics? = nil,
        standing: NoShowStanding? = nil
    ) {
        self.metrics = metrics
        self.standing = standing
        self.pool = pool
        self.settings = settings
        self.clock = clock
        self.transport = transport
        self.logger = logger
        self.workerID = workerID ?? "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)/\(UUID().uuidString.prefix(8))"
        queue = DeliveryQueue(pool: pool)
        reminders = Reminders(pool: pool, lead: settings.reminderLead, positionStale: settings.positionStale, timeZone: timeZone)
        local = LocalSinks(pool: pool, messages: RiderMessage(timeZone: timeZone, hotline: hotline), logger: logger)
        backoff = Backoff(base: settings.backoffBase, cap: settings.backoffCap)
    }

    /// One pass as of `now`: fire due reminders, review the riders whose no-show record changed
    /// and start the suspensions due (``NoShowStanding``), deliver every due inbox/log delivery,
    /// then every due webhook (stopping between batches once shutdown began), and
    /// report when the next thing falls due.
    @discardableResult
    public func runOnce(now: Date) async throws -> TriggerLoopPass {
        var pass = TriggerLoopPass()
        pass.reminded = try await reminders.fire(now: now).count
        if let standing {
            (pass.notices, pass.suspensionCancels) = try await standing.sweep(now: now)
        }
        while true {
            let done = try await local.deliverBatch(now: now, limit: settings.batchSize)
            pass.local += done
            if done < settings.batchSize { break }
        }
        if settings.webhookURL == nil {
            pass.webhooksSkipped = try await queue.skipWebhooks(now: now)
        } else {
            while !stopping.load(ordering: .relaxed) {
                let batch = try await queue.claimWebhooks(worker: workerID, now: now, lease: settings.claimLease, limit: settings.batchSize)
                if batch.isEmpty { break }
                let outcome = try await send(batch, now: now)
                pass.webhooksDelivered += outcome.delivered
                pass.webhooksFailed += outcome.failed
                pass.webhooksParked += outcome.parked
                if batch.count < settings.batchSize { break }
            }
        }
        let nextReminder = try await reminders.nextDue(after: now)
        let nextDelivery = try await queue.nextDue(after: now)
        let nextStart = try await standing?.nextStart(after: now)
        pass.nextDue = [nextReminder, nextDelivery, nextStart].compactMap { $0 }.min()
        return pass
    }

    /// Sends a claimed batch: one ride's events in order, different rides concurrently.
    private func send(_ batch: [ClaimedWebhook], now: Date) async throws -> (delivered: Int, failed: Int, parked: Int) {
        var byRide: [UUID: [ClaimedWebhook]] = [:]
        var order: [UUID] = []
        for claim in batch {
            if byRide[claim.rideID] == nil { order.append(claim.rideID) }
            byRide[claim.rideID, default: []].append(claim)
        }
        let groups = order.map { byRide[$0]! }
        return try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
            var totals = (0, 0, 0)
            var next = 0
            func add() {
                let claims = groups[next]
                next += 1
                group.addTask {
                    var counts = (0, 0, 0)
                    for claim in claims {
                        switch try await self.deliver(claim, now: now) {
                        case .delivered: counts.0 += 1
                        case .retry: counts.1 += 1
                        case .parked: counts.2 += 1
                        }
                    }
                    return counts
                }
            }
            while next < groups.count && next < settings.webhookConcurrency { add() }
            while let counts = try await group.next() {
                totals = (totals.0 + counts.0, totals.1 + counts.1, totals.2 + counts.2)
                if next < groups.count { add() }
            }
            return totals
        }
    }

    enum Outcome { case delivered, retry, parked }

    /// POSTs one event and records the outcome.
    private func deliver(_ claim: ClaimedWebhook, now: Date) async throws -> Outcome {
        guard let url = settings.webhookURL, let secret = settings.webhookSecret else { return .retry }
        let body = Array(claim.body.utf8)
        let timestamp = Int(clock.now.timeIntervalSince1970)
        let request = WebhookRequest(
            url: url,
            headers: [
                ("Content-Type", "application/json"),
                ("User-Agent", "vand"),
                ("X-Vand-Event-Id", String(claim.eventID)),
                ("X-Vand-Timestamp", String(timestamp)),
                ("X-Vand-Signature", WebhookSignature.sign(body: body, timestamp: timestamp, secret: secret)),
            ],
            body: body,
            timeout: settings.webhookTimeout
        )
        let failure: String
        do {
            let status = try await transport.send(request)
            if (200..<300).contains(status) {
                try await queue.delivered(claim.eventID, now: now)
                return .delivered
            }
            failure = "HTTP \(status)"
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            failure = String(describing: error)
        }
        metrics?.deliveryFailed(sink: "webhook")
        let attempt = claim.attempts + 1
        let park = attempt >= settings.webhookMaxAttempts
        let retryAt = now.addingTimeInterval(backoff.delay(afterAttempt: attempt))
        try await queue.failed(claim.eventID, worker: workerID, error: failure, now: now, retryAt: retryAt, park: park)
        logger.warning(
            park ? "webhook parked" : "webhook failed; will retry",
            metadata: [
                "event": "\(claim.eventID)", "attempt": "\(attempt)", "error": "\(failure)",
                "retry_at": "\(park ? "never (vanadmin events replay)" : "\(retryAt)")",
            ])
        return park ? .parked : .retry
    }

    /// Runs until graceful shutdown (which lets the batch in hand finish) or cancellation.
    public func run() async throws {
        let events = PGListener.events(configuration: pool.configuration, channels: ["vand_ride_events"], logger: logger)
        logger.info(
            "trigger loop started",
            metadata: [
                "worker": "\(workerID)", "webhook": "\(settings.webhookURL == nil ? "off" : "on")",
                "reminder_lead_s": "\(Int(settings.reminderLead))",
            ])
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                // Every NOTIFY (and every reconnect of the listener) wakes a pass.
                group.addTask {
                    for await event in events {
                        if case .listening = event { self.listening.store(true, ordering: .relaxed) }
                        if case .lost = event { self.listening.store(false, ordering: .relaxed) }
                        self.wake.signal()
                    }
                    self.listening.store(false, ordering: .relaxed)
                }
                await self.loop()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.stop()
        }
        logger.info("trigger loop stopped", metadata: ["worker": "\(workerID)"])
    }

    /// Asks ``run()`` to return after the batch in hand.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
    }

    private func loop() async {
        var failures = 0
        while !stopping.load(ordering: .relaxed) && !Task.isCancelled {
            let now = clock.now
            var wait: TimeInterval
            do {
                let pass = try await runOnce(now: now)
                failures = 0
                if pass.reminded + pass.local + pass.webhooksDelivered + pass.webhooksFailed + pass.webhooksParked > 0 {
                    logger.debug(
                        "trigger loop pass",
                        metadata: [
                            "reminded": "\(pass.reminded)", "local": "\(pass.local)", "webhooks": "\(pass.webhooksDelivered)",
                            "failed": "\(pass.webhooksFailed)", "parked": "\(pass.webhooksParked)",
                        ])
                }
                wait = pass.nextDue.map { $0.timeIntervalSince(clock.now) } ?? settings.idleWake
                // Due now but held by another loop: look again shortly rather than spin.
                wait = min(max(wait, 0.05), settings.idleWake)
            } catch {
                if Task.isCancelled { break }
                failures += 1
                wait = min(Double(1 << min(failures, 5)) * 0.25, 5)
                logger.warning("trigger loop pass failed; retrying", metadata: ["error": "\(error)", "retry_in_s": "\(wait)"])
            }
            passes.add(1, ordering: .relaxed)
            if stopping.load(ordering: .relaxed) { break }
            await wake.wait(upTo: .milliseconds(Int64(wait * 1_000)))
        }
    }
}
