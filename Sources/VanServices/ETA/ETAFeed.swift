import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import VanPostgres

/// One rider's ETA changed: the new one, or nil once she may no longer see it (on board, the van
/// off the road, the ride no longer approved).
public struct RiderETAUpdate: Sendable, Hashable {
    /// The ride.
    public var rideID: UUID
    /// What she sees now; nil: nothing.
    public var eta: RiderETA?
}

/// Carries ETAs to riders' open streams on this node: `LISTEN vand_van_positions` (payload: the van)
/// and `vand_ride_events` (a tap, a re-timing, a cancellation: the event's ride's van) on a
/// connection of its own. Each van is worked out once per change (changes that come while one is
/// worked out are merged), however many streams wait on it, and the result goes to the streams of
/// that van's riders who may see it (``VanETAs/rider(_:lead:)``); nothing is read per stream.
///
/// Every node does this for every van, and from the same result raises late alerts
/// (``LateAlerts``, once per ride whatever the nodes) and fires reminders from the ETA
/// (``Reminders/fire(fromETAs:now:)``, once per ride). Every ``EventSettings/etaSweep`` it works
/// out every van with an open shift again: a van whose phone went quiet grows later with the clock.
/// A van found late is said to the background planner (``RouteChangeHook/roadRunsLate()``).
public final class ETAFeed: Service, Sendable {
    private struct Subscriber {
        let netID: String
        let continuation: AsyncStream<RiderETAUpdate>.Continuation
    }

    private struct State {
        var subscribers: [UUID: Subscriber] = [:]
        var byRider: [String: Set<UUID>] = [:]
        var pendingVans: Set<Int64> = []
        var pendingEvents: Set<Int64> = []
        /// Every van on a shift is to be looked at again (the periodic sweep, or a new LISTEN
        /// that may have missed changes); the loop does it, so two sweeps never overlap.
        var sweepDue = false
        /// What each van's riders were last shown: ride → (rider, ETA).
        var shown: [Int64: [UUID: (netID: String, eta: RiderETA)]] = [:]
    }

    private let configuration: PGConfiguration
    private let service: ETAService
    private let reminders: Reminders?
    private let alerts: LateAlerts?
    private let clock: any TimeSource
    private let logger: Logger
    private let routeChanges: RouteChangeHook
    private let state = Mutex(State())
    private let wake = WakeSignal()

    /// A feed listening with `configuration` (its own connection), working ETAs out with `service`
    /// as of `clock`; with `reminders` it fires reminders from the ETA, with `alerts` it raises late
    /// alerts; it tells `routeChanges` each time a van's ETAs pass a window's end (the background
    /// planner then re-plans the day from the road at once).
    public init(
        configuration: PGConfiguration, service: ETAService, reminders: Reminders?, alerts: LateAlerts?,
        clock: any TimeSource = SystemTimeSource(), logger: Logger = Logger(label: "vand.eta"), routeChanges: RouteChangeHook = .none
    ) {
        self.configuration = configuration
        self.service = service
        self.reminders = reminders
        self.alerts = alerts
        self.clock = clock
        self.logger = logger
        self.routeChanges = routeChanges
    }

    /// ETA updates for `netID`'s rides: first what this node last showed her, then each change.
    /// Ends when the caller stops iterating.
    public func updates(for netID: String) -> AsyncStream<RiderETAUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: RiderETAUpdate.self, bufferingPolicy: .bufferingNewest(32))
        let id = UUID()
        let current = state.withLock { state -> [RiderETAUpdate] in
            state.subscribers[id] = Subscriber(netID: netID, continuation: continuation)
            state.byRider[netID, default: []].insert(id)
            return state.shown.values.flatMap { $0.values.filter { $0.netID == netID }.map { RiderETAUpdate(rideID: $0.eta.rideID, eta: $0.eta) } }
        }
        for update in current { continuation.yield(update) }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.subscribers[id] = nil
                state.byRider[netID]?.remove(id)
                if state.byRider[netID]?.isEmpty == true { state.byRider[netID] = nil }
            }
        }
        return stream
    }

    /// How many streams are subscribed (for tests and metrics).
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Works out `vanID` now and tells its riders, raises its late rides and fires its reminders
    /// (what a position's NOTIFY does; tests call it directly).
    public func refresh(van vanID: Int64) async throws {
        let now = clock.now
        let etas = try await service.van(vanID, now: now)
        publish(etas, van: vanID)
        guard let etas else { return }
        if !etas.late.isEmpty { routeChanges.roadRunsLate() }
        if let alerts {
            // The van's alerts become what its ETAs say now: raised, updated or cleared.
            let changes = try await alerts.sync(van: vanID, late: etas.late, now: now)
            if !changes.raised.isEmpty { logger.info("late alert raised", metadata: ["van": "\(vanID)", "rides": "\(changes.raised.count)"]) }
            if !changes.cleared.isEmpty { logger.info("late alert cleared", metadata: ["van": "\(vanID)", "rides": "\(changes.cleared.count)"]) }
        }
        if let reminders { try await reminders.fire(fromETAs: etas, now: now) }
    }

    /// Sends each rider of the van what changed since the last time.
    private func publish(_ etas: VanETAs?, van vanID: Int64) {
        let visible = etas?.visible(lead: service.settings.etaLead) ?? []
        let sends = state.withLock { state -> [(AsyncStream<RiderETAUpdate>.Continuation, RiderETAUpdate)] in
            var now: [UUID: (netID: String, eta: RiderETA)] = [:]
            for (netID, eta) in visible { now[eta.rideID] = (netID, eta) }
            let before = state.shown[vanID] ?? [:]
            state.shown[vanID] = now.isEmpty ? nil : now
            var updates: [(String, RiderETAUpdate)] = now.map { ($0.value.netID, RiderETAUpdate(rideID: $0.key, eta: $0.value.eta)) }
            // A ride gone from this van's riders: nothing to see, unless another van now shows it
            // (re-planning moved it there; that van's ETA is what she sees).
            for (rideID, shown) in before
            where now[rideID] == nil
                && !state.shown.contains(where: { $0.key != vanID && $0.value[rideID] != nil })
            {
                updates.append((shown.netID, RiderETAUpdate(rideID: rideID, eta: nil)))
            }
            return updates.flatMap { netID, update in
                (state.byRider[netID] ?? []).compactMap { state.subscribers[$0].map { ($0.continuation, update) } }
            }
        }
        for (continuation, update) in sends { continuation.yield(update) }
    }

    /// Listens and works out what changed until cancelled or graceful shutdown.
    public func run() async throws {
        let events = PGListener.events(configuration: configuration, channels: ["vand_van_positions", "vand_ride_events"], logger: logger)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await event in events { self.heard(event) }
                }
                group.addTask {
                    let sweep = Duration.milliseconds(Int64(self.service.settings.etaSweep * 1_000))
                    while !Task.isCancelled {
                        try? await Task.sleep(for: sweep)
                        self.requestSweep()
                    }
                }
                await self.loop()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.wake.signal()
        }
    }

    private func heard(_ event: PGListenEvent) {
        switch event {
        case .listening:
            requestSweep()  // changes may have been missed
        case .lost:
            break
        case .notification(let note):
            let queued = state.withLock { state -> Bool in
                if note.channel == "vand_van_positions", let van = Int64(note.payload) {
                    return state.pendingVans.insert(van).inserted
                } else if note.channel == "vand_ride_events", let event = Int64(note.payload) {
                    return state.pendingEvents.insert(event).inserted
                }
                return false
            }
            if queued { wake.signal() }
        }
    }

    /// Asks the loop to sweep (``sweep()``) at its next turn.
    private func requestSweep() {
        state.withLock { $0.sweepDue = true }
        wake.signal()
    }

    /// Queues every van with an open shift (the loop's own step: it then works them out).
    private func sweep() async {
        do {
            let vans = try await service.vansWithOpenShifts()
            state.withLock { $0.pendingVans.formUnion(vans) }
        } catch {
            if !Task.isCancelled { logger.warning("cannot read the vans on the road; will retry", metadata: ["error": "\(error)"]) }
        }
    }

    /// Works out the vans queued (by a NOTIFY or a sweep), one at a time, until cancelled.
    private func loop() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            if state.withLock({ state in
                defer { state.sweepDue = false }; return state.sweepDue
            }) {
                await sweep()
            }
            let (vans, events) = state.withLock { state -> (Set<Int64>, Set<Int64>) in
                defer { state.pendingVans = []; state.pendingEvents = [] }
                return (state.pendingVans, state.pendingEvents)
            }
            var all = vans
            if !events.isEmpty {
                do {
                    all.formUnion(try await service.vans(ofEvents: events.sorted()))
                } catch {
                    if Task.isCancelled { return }
                    logger.warning("cannot read the vans of ride events", metadata: ["error": "\(error)"])
                }
            }
            for van in all.sorted() {
                do {
                    try await refresh(van: van)
                } catch {
                    if Task.isCancelled { return }
                    logger.warning("cannot work out a van's ETAs; will retry at its next change", metadata: ["van": "\(van)", "error": "\(error)"])
                }
            }
            if all.isEmpty { await wake.wait(upTo: .seconds(60)) }
        }
    }
}
