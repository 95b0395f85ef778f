import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import VanDomain
import VanPostgres

/// One change the dispatcher's console shows live.
public enum DispatchUpdate: Sendable, Hashable {
    /// A ride event (booked, approved, moved, cancelled, a tap, late…): its ride, kind, van and service day.
    case ride(id: UUID, kind: String, van: Int64?, day: LocalDate)
    /// A van's position or taps moved it.
    case van(Int64)
    /// Something for the alerts page: `late`, `no_show`, `parked`, `pending`, `unstaffed`.
    case alert(String)
}

/// Carries ride events, van positions and alerts to the dispatchers' open streams:
/// `LISTEN vand_ride_events, vand_van_positions, vand_ride_late` on a connection of its own for as long as
/// ``run()`` runs (a `Service`). Each ride event is read once (its ride, van and day) however
/// many dispatchers watch; a subscriber that falls behind keeps the newest updates. What no
/// notification announces — a ride crossing the pending limit, a delivery parked — is looked
/// for every ``tick`` while anyone watches.
public final class DispatchFeed: Service, Sendable {
    private let configuration: PGConfiguration
    private let pool: PGPool
    private let timeZone: TimeZone
    private let logger: Logger
    private let subscribers = Mutex<[UUID: AsyncStream<DispatchUpdate>.Continuation]>([:])
    private let pendingEvents = Mutex<Set<Int64>>([])
    private let wake = WakeSignal()
    private let listening = Mutex(false)
    private let clock: any TimeSource
    private let pendingAfter: TimeInterval
    /// How often the feed looks for alerts no notification announces.
    public let tick: Duration

    /// Updates kept for a subscriber that has not read them yet (the oldest are dropped).
    public static let buffer = 256

    /// A feed listening with `pool`'s configuration on a connection of its own; events read through
    /// `pool`. A ride pending longer than `pendingAfter` seconds (by `clock`) is an alert.
    public init(
        pool: PGPool, timeZone: TimeZone, clock: any TimeSource = SystemTimeSource(), pendingAfter: TimeInterval = 600,
        tick: Duration = .seconds(30), logger: Logger = Logger(label: "vand.dispatch-feed")
    ) {
        self.configuration = pool.configuration
        self.pool = pool
        self.timeZone = timeZone
        self.clock = clock
        self.pendingAfter = pendingAfter
        self.tick = tick
        self.logger = logger
    }

    /// Updates from now on; ends when the caller stops iterating.
    public func updates() -> AsyncStream<DispatchUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: DispatchUpdate.self, bufferingPolicy: .bufferingNewest(Self.buffer))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    /// Whether `LISTEN` is in place now (notifications are heard).
    public var isListening: Bool { listening.withLock { $0 } }

    /// How many subscribers are listening (for tests).
    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Sends `update` to every subscriber (the listener's path; tests may call it).
    public func publish(_ update: DispatchUpdate) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(update) }
    }

    /// Listens until cancelled or graceful shutdown.
    public func run() async throws {
        let events = PGListener.events(
            configuration: configuration, channels: ["vand_ride_events", "vand_van_positions", "vand_ride_late"], logger: logger)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await event in events { self.heard(event) }
                    self.wake.signal()
                }
                group.addTask {
                    var since = self.clock.now
                    while !Task.isCancelled {
                        try? await Task.sleep(for: self.tick)
                        let now = self.clock.now
                        guard self.subscriberCount > 0 else { since = now; continue }
                        do {
                            for update in try await self.timedAlerts(since: since, now: now) { self.publish(update) }
                            since = now
                        } catch {
                            if !Task.isCancelled { self.logger.warning("cannot look for the console's alerts", metadata: ["error": "\(error)"]) }
                        }
                    }
                }
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    let ids = self.pendingEvents.withLock { ids -> [Int64] in
                        defer { ids = [] }
                        return ids.sorted()
                    }
                    if ids.isEmpty {
                        await self.wake.wait(upTo: .seconds(60))
                        continue
                    }
                    do {
                        for update in try await self.read(events: ids) { self.publish(update) }
                    } catch {
                        if Task.isCancelled { break }
                        self.logger.warning("cannot read ride events for the console", metadata: ["error": "\(error)"])
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.wake.signal()
        }
    }

    private func heard(_ event: PGListenEvent) {
        let note: PGNotification
        switch event {
        case .listening:
            listening.withLock { $0 = true }
            return
        case .lost:
            listening.withLock { $0 = false }
            return
        case .notification(let heard):
            note = heard
        }
        if note.channel == "vand_van_positions", let van = Int64(note.payload) {
            publish(.van(van))
        } else if note.channel == "vand_ride_late" {
            publish(.alert("late"))  // a late alert raised, updated or cleared (sql/0035)
        } else if note.channel == "vand_ride_events" {
            if let id = Int64(note.payload) {
                pendingEvents.withLock { _ = $0.insert(id) }
                wake.signal()
            } else if note.payload == "replay" {
                publish(.alert("parked"))  // parked deliveries were sent again
            }
        }
    }

    /// The alerts that arose in (`since`, `now`] without a notification: a pending ride crossing
    /// the pending limit, its pickup coming within ``PendingQueue/soon``, or booked that soon
    /// (`pending`); a webhook delivery parked (`parked`); a ride on a van with no driver on shift
    /// coming within ``DispatchAlerts/unstaffedWithin`` of its pickup (`unstaffed`).
    public func timedAlerts(since: Date, now: Date) async throws -> [DispatchUpdate] {
        let pendingAfter = self.pendingAfter
        return try await pool.withConnection { conn in
            let row = try conn.query(
                """
                SELECT EXISTS (SELECT 1 FROM rides WHERE status = 'pending'
                                 AND ((requested_at > \(since.addingTimeInterval(-pendingAfter)) AND requested_at <= \(now.addingTimeInterval(-pendingAfter)))
                                      OR (pickup_at >= \(since.addingTimeInterval(PendingQueue.soon)) AND pickup_at < \(now.addingTimeInterval(PendingQueue.soon)))
                                      OR (requested_at > \(since) AND requested_at <= \(now) AND pickup_at < \(now.addingTimeInterval(PendingQueue.soon))))) AS pending,
                       EXISTS (SELECT 1 FROM deliveries WHERE parked_at > \(since) AND parked_at <= \(now) AND delivered_at IS NULL) AS parked,
                       EXISTS (SELECT 1 FROM rides r WHERE \(DispatchAlerts.unstaffed(before: now.addingTimeInterval(DispatchAlerts.unstaffedWithin)))
                                 AND r.pickup_at >= \(since.addingTimeInterval(DispatchAlerts.unstaffedWithin))) AS unstaffed
                """
            ).first!
            var updates: [DispatchUpdate] = []
            if try row.decode(Bool.self, "pending") { updates.append(.alert("pending")) }
            if try row.decode(Bool.self, "parked") { updates.append(.alert("parked")) }
            if try row.decode(Bool.self, "unstaffed") { updates.append(.alert("unstaffed")) }
            return updates
        }
    }

    /// The updates ride events `ids` make, in event order.
    func read(events ids: [Int64]) async throws -> [DispatchUpdate] {
        let list = "{" + ids.map(String.init).joined(separator: ",") + "}"
        let rows = try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT e.ride_id, e.kind, r.van_id, r.pickup_at FROM ride_events e JOIN rides r ON r.id = e.ride_id
                WHERE e.id = ANY(\(list)::bigint[]) ORDER BY e.id
                """
            ).map { row in
                (
                    try row.decode(UUID.self, "ride_id"), try row.decode(String.self, "kind"), try row.decode(Int64?.self, "van_id"),
                    try row.decode(Date.self, "pickup_at")
                )
            }
        }
        var updates: [DispatchUpdate] = []
        for (ride, kind, van, pickupAt) in rows {
            updates.append(.ride(id: ride, kind: kind, van: van, day: LocalDate(containing: pickupAt, in: timeZone)))
            if kind == "late" || kind == "no_show" { updates.append(.alert(kind)) }
            if let van, ["arrived", "boarded", "no_show", "completed", "tap_undone"].contains(kind) { updates.append(.van(van)) }
        }
        return updates
    }
}
