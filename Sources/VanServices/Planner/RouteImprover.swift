import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import VanDomain
import VanPostgres
import VanScheduler

/// The planner in the background: after a booking or a cancellation commits, it improves that
/// service day's routes (``PlanOptimizer``: stops re-ordered, rides moved between vans, planned
/// times shifted, only inside promised windows and never for a ride under way or about to
/// start) with a short search budget (`VAND_IMPROVE_SECONDS`). Run it as a swift-service-lifecycle
/// `Service` (``run()``), or drive ``runDue()`` step by step (tests, with a manual clock).
///
/// Signals coalesce: a day is pending at most once, however many bookings name it, and falls due
/// once bookings (on any day) have been quiet for ``ImprovementSettings/quietPeriod`` (at most
/// ``ImprovementSettings/maxDelay`` after the day's first signal); a signal that arrives while the day is
/// being improved leaves it pending for exactly one more run. Days run one
/// at a time, the search on one low-priority thread of its own (never the cooperative pool), and
/// after each run the improver rests as long as the run took, so under a steady stream of bookings
/// the search keeps at most half of one core busy. A booking waits for it only while the improver
/// holds the day's van-day rows for its short write (milliseconds): the search itself holds no lock.
/// A run that finds a route changed under it (`written == false`) writes nothing and leaves the day
/// pending: the next signal, or ``ImprovementSettings/retryDelay`` later, tries again.
///
/// On the day in progress it also re-plans from the road (``RoadReplanner``, when given): after
/// the improvement, every van on shift starts from where it is, done stops stay, and a ride its
/// van can no longer keep may move to another van that keeps it. The day falls due for that on
/// ``roadChanged()`` (a tap, a position), and the loop re-plans it from the road alone
/// (``replanRoad()``) at least every ``ImprovementSettings/roadInterval``, and at once when a van
/// runs late (``roadRunsLate()``, from the ETAs), no more often than ``ImprovementSettings/lateGap``.
///
/// Several vand processes may each run one against the same database: the optimizer writes only
/// after locking every van-day row of the day (in van order, so two improvers never deadlock)
/// and checking each row's version is the one it planned from, and the route trigger checks every
/// promise at commit, so two improvers, or an improver and a booking, can never write over each other.
public final class RouteImprover: Service, Sendable {
    /// What one run came to.
    public struct Run: Sendable {
        /// The day improved.
        public var day: LocalDate
        /// The optimizer's answer; nil when the run failed (the database, a timeout).
        public var outcome: PlanOptimizer.Outcome?
        /// The re-plan from the road (the day in progress only, with a road re-planner).
        public var road: RoadReplanner.Outcome?
        /// Why the run failed, in words.
        public var failure: String?
        /// Seconds the run took.
        public var seconds: Double

        /// A better plan was written (or none was found, with nothing to write).
        public var settled: Bool { (outcome?.written ?? false) && (road?.written ?? true) }
    }

    let optimizer: any DayOptimizing
    let road: RoadReplanner?
    let settings: ImprovementSettings
    let timeZone: TimeZone
    let clock: any TimeSource
    let budgetClock: any TimeSource
    let logger: Logger
    let metrics: VandMetrics?
    /// Days waiting for a run, each with the earliest time it may start and when it was first signalled.
    private let pending = Mutex<[LocalDate: Due]>([:])

    private struct Due {
        var at: Date
        var since: Date
    }
    private let wake = WakeSignal()
    /// When the road last made today due.
    private let roadSignalled = Mutex<Date?>(nil)
    /// Whether a van ran late since the last re-plan from the road.
    private let runningLate = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)

    /// An improver of the routes in `pool`, for a service in `timeZone`.
    public convenience init(
        pool: PGPool, timeZone: TimeZone, settings: ImprovementSettings, clock: any TimeSource = SystemTimeSource(),
        logger: Logger = Logger(label: "vand.planner"), metrics: VandMetrics? = nil, positionStale: TimeInterval = 120
    ) {
        self.init(
            optimizer: PlanOptimizer(pool: pool, timeZone: timeZone, background: true), timeZone: timeZone,
            settings: settings, clock: clock, logger: logger, metrics: metrics,
            road: settings.roadInterval > 0
                ? RoadReplanner(
                    pool: pool, timeZone: timeZone, positionStale: positionStale,
                    frozen: settings.roadFrozen) : nil)
    }

    /// An improver that runs `optimizer`, and `road` on the day in progress. `clock` gives "now"
    /// (which rides are about to start, where the vans are, when to retry); `budgetClock`
    /// measures the search budget and the rest after a run.
    public init(
        optimizer: any DayOptimizing, timeZone: TimeZone, settings: ImprovementSettings, clock: any TimeSource = SystemTimeSource(),
        budgetClock: any TimeSource = SystemTimeSource(), logger: Logger = Logger(label: "vand.planner"), metrics: VandMetrics? = nil,
        road: RoadReplanner? = nil
    ) {
        self.optimizer = optimizer
        self.road = road
        self.timeZone = timeZone
        self.settings = settings
        self.clock = clock
        self.budgetClock = budgetClock
        self.logger = logger
        self.metrics = metrics
    }

    /// The hook to create ``BookingService`` and ``RiderRides`` with: each committed booking or
    /// cancellation names the local day of its pickup; ``ETAFeed`` says through it when a van runs late.
    public var hook: RouteChangeHook {
        RouteChangeHook(
            { [weak self] time in
                guard let self else { return }
                self.dayChanged(LocalDate(containing: time, in: self.timeZone))
            }, late: { [weak self] in self?.roadRunsLate() })
    }

    /// Says `day`'s routes changed: the day falls due after the quiet period (each signal starts
    /// it again, up to the longest delay). Cheap, never blocks; nothing when off.
    public func dayChanged(_ day: LocalDate) {
        guard settings.enabled else { return }
        let now = clock.now, quiet = settings.quietPeriod, longest = settings.maxDelay
        pending.withLock { pending in
            let since = pending[day]?.since ?? now
            pending[day] = Due(at: min(now.addingTimeInterval(quiet), since.addingTimeInterval(longest)), since: since)
            // A booking on any day holds every other pending day back too (never past its longest
            // delay): runs come in lulls, not in the middle of a burst of bookings on other days,
            // whose riders would wait behind the run's reads, writes and route checks.
            for (other, due) in pending where other != day {
                pending[other] = Due(at: max(due.at, min(now.addingTimeInterval(quiet), due.since.addingTimeInterval(longest))), since: due.since)
            }
        }
        wake.signal()
    }

    /// Says the road moved (a tap, a van's position): the day in progress falls due, to be
    /// re-planned from the road (with the improvement) after the quiet period.
    public func roadChanged() {
        let now = clock.now
        roadSignalled.withLock { $0 = now }
        dayChanged(LocalDate(containing: now, in: timeZone))
    }

    /// Says a van on the road runs late (its ETAs pass a promised window's end): the day in
    /// progress is re-planned from the road at once (``roadReplanDue``), or as soon as
    /// ``ImprovementSettings/lateGap`` has passed since the last re-plan. Cheap, never blocks.
    public func roadRunsLate() {
        guard road != nil, settings.enabled, settings.roadInterval > 0 else { return }
        if !runningLate.exchange(true, ordering: .relaxed) { wake.signal() }
    }

    /// When the loop next re-plans the day in progress from the road: the interval after the last
    /// time, or ``ImprovementSettings/lateGap`` after it once a van runs late; nil without road
    /// re-planning.
    public var roadReplanDue: Date? {
        guard road != nil, settings.roadInterval > 0 else { return nil }
        let gap = runningLate.load(ordering: .relaxed) ? min(settings.lateGap, settings.roadInterval) : settings.roadInterval
        return roadSignalled.withLock { $0?.addingTimeInterval(gap) } ?? .distantPast
    }

    /// Re-plans the day in progress from the road now (no improvement); nil without a road
    /// re-planner or when the run failed (logged).
    @discardableResult
    public func replanRoad() async -> RoadReplanner.Outcome? {
        guard let road else { return nil }
        let now = clock.now
        roadSignalled.withLock { $0 = now }
        runningLate.store(false, ordering: .relaxed)
        do {
            let outcome = try await road.replan(day: LocalDate(containing: now, in: timeZone), now: now, actor: settings.actor)
            if outcome.ridesChanged > 0 || !outcome.written {
                logger.info(
                    outcome.written ? "re-planned from the road" : "routes changed while re-planning from the road; will retry",
                    metadata: [
                        "rides_changed": "\(outcome.ridesChanged)", "rides_moved": "\(outcome.moved.count)",
                        "rides_unkept": "\(outcome.unkept.count)",
                    ])
            }
            return outcome
        } catch {
            logger.warning("re-planning from the road failed; will retry", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// The days waiting for a run, earliest first.
    public var pendingDays: [LocalDate] { pending.withLock { $0.keys.sorted() } }

    /// The earliest time a pending day falls due; nil when none waits.
    public var nextDue: Date? { pending.withLock { $0.values.map(\.at).min() } }

    /// Runs every day due now, one after another, and says what each came to. A day signalled
    /// while it runs stays pending for the next call; one that could not write is due again
    /// ``ImprovementSettings/retryDelay`` from now.
    @discardableResult
    public func runDue() async -> [Run] {
        let now = clock.now
        let due = pending.withLock { pending -> [LocalDate] in
            let days = pending.filter { $0.value.at <= now }.keys.sorted()
            for day in days { pending[day] = nil }
            return days
        }
        var runs: [Run] = []
        for (index, day) in due.enumerated() {
            if stopping.load(ordering: .relaxed) {
                // Not started: leave them pending, as they were.
                pending.withLock { pending in for day in due[index...] where pending[day] == nil { pending[day] = Due(at: now, since: now) } }
                break
            }
            runs.append(await improve(day))
        }
        return runs
    }

    private func improve(_ day: LocalDate) async -> Run {
        let started = budgetClock.now
        var run = Run(day: day, outcome: nil, road: nil, failure: nil, seconds: 0)
        do {
            run.outcome = try await optimizer.optimize(day: day, seconds: settings.seconds, now: clock.now, clock: budgetClock, actor: settings.actor)
            let now = clock.now
            if let road, day == LocalDate(containing: now, in: timeZone) {
                run.road = try await road.replan(day: day, now: now, actor: settings.actor)
            }
        } catch {
            run.failure = String(describing: error)
        }
        run.seconds = budgetClock.now.timeIntervalSince(started)
        if !run.settled {
            let now = clock.now, retryAt = now.addingTimeInterval(settings.retryDelay)
            pending.withLock { $0[day] = Due(at: min($0[day]?.at ?? retryAt, retryAt), since: $0[day]?.since ?? now) }
        }
        record(run)
        return run
    }

    /// One log line and the metrics for a run.
    private func record(_ run: Run) {
        let seconds = String(format: "%.2f", run.seconds)
        guard let outcome = run.outcome else {
            metrics?.improvementRun(result: "failed", ridesChanged: 0, drivingSaved: 0)
            logger.warning(
                "route improvement failed; will retry",
                metadata: [
                    "day": "\(run.day)", "error": "\(run.failure ?? "?")", "retry_in_s": "\(Int(settings.retryDelay))",
                ])
            return
        }
        let result = !outcome.written ? "retry" : outcome.ridesChanged > 0 ? "improved" : "unchanged"
        metrics?.improvementRun(result: result, ridesChanged: outcome.ridesChanged, drivingSaved: outcome.before.driving - outcome.after.driving)
        logger.info(
            outcome.written ? "routes improved" : "routes changed while planning; will retry",
            metadata: [
                "day": "\(run.day)",
                "driving_min": "\(String(format: "%.1f", outcome.before.driving / 60)) → \(String(format: "%.1f", outcome.after.driving / 60))",
                "rides_changed": "\(outcome.ridesChanged)", "rides": "\(outcome.before.rides)", "seconds": "\(seconds)",
            ])
    }

    /// Runs until graceful shutdown (the run in hand finishes) or cancellation. Off
    /// (`VAND_IMPROVE_SECONDS=0`), it only waits for the shutdown.
    public func run() async throws {
        guard settings.enabled else {
            try? await gracefulShutdown()
            return
        }
        logger.info("route improver started", metadata: ["seconds": "\(settings.seconds)"])
        await withGracefulShutdownHandler {
            await self.loop()
        } onGracefulShutdown: {
            self.stop()
        }
        logger.info("route improver stopped")
    }

    /// Asks ``run()`` to return after the run in hand.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
    }

    private func loop() async {
        while !stopping.load(ordering: .relaxed) && !Task.isCancelled {
            let started = budgetClock.now
            if !(await runDue()).isEmpty {
                // Rest as long as the runs took, so bookings keep at least half of the core.
                let restUntil = budgetClock.now.addingTimeInterval(budgetClock.now.timeIntervalSince(started) * settings.restShare)
                while !stopping.load(ordering: .relaxed) && !Task.isCancelled, case let rest = restUntil.timeIntervalSince(budgetClock.now), rest > 0
                {
                    await wake.wait(upTo: .milliseconds(Int64(rest * 1_000) + 1))
                }
            }
            if stopping.load(ordering: .relaxed) { break }
            // The road moves on whether or not anyone taps: the day in progress is re-planned from it
            // at least every interval (the re-plan alone: with no van on shift it reads and writes nothing).
            // A van running late brings it forward (``roadRunsLate()``).
            if let due = roadReplanDue, due <= clock.now {
                await replanRoad()
            }
            // Until the next retry falls due, or a signal (at most an hour: a safety net).
            let roadWait = roadReplanDue.map { max(0, $0.timeIntervalSince(clock.now)) } ?? 3_600
            let wait = min(nextDue.map { $0.timeIntervalSince(clock.now) } ?? 3_600, roadWait, 3_600)
            if wait > 0 { await wake.wait(upTo: .milliseconds(Int64(wait * 1_000) + 1)) }
        }
    }
}
