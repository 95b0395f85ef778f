import Foundation
import Synchronization
import VanDomain
import VanPostgres
import VanScheduler
import VanServices

/// A clock the simulation moves by hand: every service reads "now" from it.
final class SimulationClock: TimeSource {
    private let current: Mutex<Date>

    init(_ start: Date) { current = Mutex(start) }

    /// The simulated time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock to `date` (never back).
    func set(_ date: Date) { current.withLock { $0 = max($0, date) } }
}

/// What happens to each rider of the day, drawn once from the seed so that both runs of the day
/// see the same riders: who does not show, who cancels late (how long before the window), and
/// who books her way back as a will-call (and how long she stays before she calls).
struct RiderFates: Sendable {
    var noShow: [Bool]
    var cancelLead: [TimeInterval?]
    /// Booked with a will-call way back, by request index.
    var willCall: [Bool]
    /// How long she stays after her drop-off before she says she is ready, by request index:
    /// uniform 20–120 minutes, in whole seconds.
    var stay: [TimeInterval]

    /// The shortest and longest stay before "I'm ready".
    static let stays: ClosedRange<TimeInterval> = 20 * 60...120 * 60

    init(requests: [CampusRequest], options: SimulateOptions) {
        let count = requests.count
        var rng = SeededGenerator(seed: options.seed ^ 0xFA7E_5EED)
        noShow = (0..<count).map { _ in Double.random(in: 0..<1, using: &rng) < options.noShows }
        cancelLead = (0..<count).map { _ in
            Double.random(in: 0..<1, using: &rng) < options.cancels ? Double(Int.random(in: 10...55, using: &rng) * 60) : nil
        }
        // The will-calls from a generator of their own, so the fates above stay as they were; the
        // draws do not depend on the share, so a larger share adds riders and keeps their stays.
        var calls = SeededGenerator(seed: options.seed ^ 0x3C_A11B_ACC5)
        let draws = (0..<count).map { _ in
            (call: Double.random(in: 0..<1, using: &calls), stay: Double.random(in: Self.stays, using: &calls).rounded())
        }
        stay = draws.map(\.stay)
        willCall = Array(repeating: false, count: count)
        for request in requests where request.index < count && Self.mayCall(request) && cancelLead[request.index] == nil {
            willCall[request.index] = draws[request.index].call < options.willCall
        }
    }

    /// Whether a request may book its way back as a will-call: a pickup-time ride booked ahead
    /// (not arrive-by, not a ride now).
    static func mayCall(_ request: CampusRequest) -> Bool {
        request.promise == .pickup && request.booking != .onDemand
    }
}

/// One run of a simulated day on a fresh database: the day's bookings made (the day before at
/// their times, the same day as the clock reaches them), then drivers on shift at every van
/// follow their runs through the driver services, tapping at each stop, posting positions while
/// they drive, with each leg's driving time drawn log-normal around the model's; riders not
/// showing and cancelling late as drawn; the planner looking at the road every few minutes (and,
/// with `replanning`, re-planning from it).
struct RoadSimulation {
    let options: SimulateOptions
    let database: Database
    let desk: any DriverDesk
    let timeZone: TimeZone
    let requests: [CampusRequest]
    let sites: [CampusFleet.Site]
    let fates: RiderFates
    let replanning: Bool
    let clock: SimulationClock
    let day: LocalDate
    /// The promised windows' width.
    let windowWidth: TimeInterval

    /// The office's services on this day's database and clock, as `vand` builds them.
    var services: VandServices {
        var road = RoadSettings()
        road.noShowWait = Self.noShowWait
        return VandServices.bench(database, timeZone: timeZone, clock: clock, road: road)
    }

    /// The no-show wait the driver services apply (`VAND_NO_SHOW_WAIT`, its default).
    static let noShowWait: TimeInterval = 300
    /// How often a driving van posts its position.
    static let positionEvery: TimeInterval = 60
    /// How often an idle van looks at its run again.
    static let idleLook: TimeInterval = 60

    /// What the run recorded besides the taps (the database holds those).
    struct Log: Sendable {
        var bookedIDs: [Int: UUID] = [:]
        var netIDs: [UUID: NetID] = [:]
        var drivingSeconds: TimeInterval = 0
        var noShowTaps = 0
        var dispatcherNoShows = 0
        var requestOf: [UUID: Int] = [:]
        var moved = Set<UUID>()
        var alerted = Set<UUID>()
        /// The ETA each rider of a pickup is shown 15 minutes before her window (``RiderETA/at``: when
        /// the van is at her pickup ready for her, the later of its arrival and the window's start).
        var eta: [UUID: Date] = [:]
        /// Pickups whose ETA is the benchmark's projection: no van on the road for the ride (``ETAService`` said nil).
        var etaOffRoad = Set<UUID>()
        /// Pickups whose ETA is the benchmark's projection: the van on the road, the pickup not among its stops.
        var etaUnlisted = Set<UUID>()
        var windows: [UUID: DateInterval] = [:]
        var plannedPickups: [UUID: Date] = [:]
        var replans = 0
        var refusals: [String] = []
        var cancelled = 0
        var refused = 0
        var booked = 0
        /// Requests and refusals by how far ahead the rider asked (the day before, the same day, a ride now).
        var requestsBy: [CampusRequest.Booking: Int] = [:], refusedBy: [CampusRequest.Booking: Int] = [:]
        /// Minutes between the time asked and the time booked, for rides booked at a suggestion.
        var negotiatedMinutes: [UUID: Double] = [:]
        /// Seconds vans stood at stops waiting for a window with riders aboard, summed over vans.
        var onboardWait: TimeInterval = 0
        /// Hours the vans were on shift, summed (every van from the start until the day ended).
        var vanHours: Double = 0
        /// Taps the driver services took.
        var taps = 0
        /// Re-plans made at once because a tap showed its van running late.
        var promptReplans = 0
        /// When the road was last re-planned.
        var lastReplan: Date?
        /// Pickups whose ETA was taken again after a move to another van (the fresh ETA the move pushes).
        var etaRetaken = Set<UUID>()
        /// With `--eta-trace`: what each rider's ETA was worked out from (``ETATrace``).
        var etaTold: [UUID: ETATrace.Told] = [:]
        /// With `--eta-trace`: every *arrived* tap, in order.
        var arrivals: [ETATrace.Arrival] = []
        /// With `--eta-trace`: when each ride was booked.
        var bookedAt: [UUID: Date] = [:]
        /// With `--eta-trace`: when re-planning moved each ride, and to which van.
        var moves: [UUID: [(at: Date, van: Int64?)]] = [:]
        /// With `--eta-trace`: the rides whose riders did not show.
        var noShows = Set<UUID>()
        /// With `--eta-trace`: when each ride cancelled late was cancelled.
        var cancelledAt: [UUID: Date] = [:]
        /// The rides there booked with a will-call way back (`--will-call`).
        var willCallRides = Set<UUID>()
        /// "I'm ready" calls the drop-off taps made due (the ride there, when she calls), not yet on the agenda.
        var readyDue: [(there: UUID, at: Date)] = []
        /// What each rider who called got, by her ride there.
        var calls: [UUID: WillCallRecord] = [:]
        /// Re-plans made at once because a call was refused (`--will-call-replan`).
        var willCallReplans = 0
        /// With `--timings`: wall time per planner pass, booking and position.
        var timings = SimulationTimings()
        /// The learned road-speed factors the planner drove at, at each of its looks (the hour of
        /// the look), with the first time each was in force.
        var speedFactors: [(at: Date, factor: Double)] = []
    }

    /// One rider's "I'm ready", from her first call to the way back booked (or her giving up).
    struct WillCallRecord: Sendable, Hashable {
        /// Her first "I'm ready".
        var firstReady: Date
        /// Calls made (at most ``RoadSimulation/willCallTries``); a call re-tried after a re-plan counts once.
        var tries = 0
        /// Of those, refused.
        var refusals = 0
        /// Booked on the try after the re-plan that a refusal made (`--will-call-replan`).
        var savedByReplan = false
        /// The way back booked, and the pickup it was promised (its window's start).
        var back: UUID?
        var promised: Date?
        /// She never got a ride (refused at every try).
        var denied: Bool { back == nil }
    }

    /// Re-plans the day from the road now (``RoadReplanner``) and records what it came to; a ride
    /// moved after her ETA was taken is shown the new van's ETA, which replaces the one taken.
    func replan(_ replanner: RoadReplanner, etas: ETAService, now: Date, log: inout Log) async throws {
        let outcome = try await SimulationTimings.time(&log.timings.passes) { try await replanner.replan(day: day, now: now, actor: "planner") }
        log.moved.formUnion(outcome.moved)
        if options.etaTrace, !outcome.moved.isEmpty {
            let vans = try await database.pool.withConnection { conn in
                try conn.query(
                    "SELECT id, van_id FROM rides WHERE id = ANY(\("{" + outcome.moved.map(\.uuidString).joined(separator: ",") + "}")::uuid[])"
                        as SQLQuery
                ) { row in (try row.decode(UUID.self, "id"), try row.decode(Int64?.self, "van_id")) }
            }
            for (id, van) in vans { log.moves[id, default: []].append((now, van)) }
        }
        log.alerted.formUnion(outcome.lateAsPlanned)
        log.replans += 1
        log.lastReplan = now
        // A ride moved to another van after her ETA was taken: she is pushed the new van's ETA.
        for id in outcome.moved.sorted(by: { $0.uuidString < $1.uuidString }) where log.eta[id] != nil {
            try await takeETA(of: id, etas: etas, replanner: replanner, now: now, log: &log)
            log.etaRetaken.insert(id)
        }
    }

    func run() async throws -> Log {
        var log = Log()
        var rng = SeededGenerator(seed: options.seed ^ 0x0AD5)
        let replanner = RoadReplanner(pool: database.pool, timeZone: timeZone, frozen: options.replanFrozen, learnsSpeeds: options.learnSpeeds)
        let lateGap = ImprovementSettings().lateGap
        let services = services
        let rides = services.rides
        let etas = services.eta
        // The model as set (not as the planner learns the road): the real drives are drawn around it.
        let estimator = try await ServiceCalendarStore(pool: database.pool, timeZone: timeZone).settings().estimator
        let service = day.interval(in: timeZone)
        // Drivers start at 6:30, an hour before the first rides; bookings before then are made first.
        let start = service.start.addingTimeInterval(6.5 * 3_600)

        // The day before: bookings at their own times, then the dispatcher approves the day.
        for request in requests where request.arrival < start {
            clock.set(request.arrival)
            _ = try await book(request, &log)
        }
        _ = try await services.dispatch.approveAllFeasible(on: day, actor: "dispatcher", now: start)
        var events = SimulationEvents()
        var pendingBookings = 0, pendingCalls = 0
        for request in requests where request.arrival >= start {
            events.add(.book(request.index), at: request.arrival)
            pendingBookings += 1
        }
        var scheduled = Set<UUID>()

        // Every van on shift from the start, its driver at the van's first stop.
        clock.set(start)
        var vans: [SimulatedVan] = []
        let fleet = try await database.pool.withConnection { conn in
            try conn.query("SELECT id FROM vans WHERE active ORDER BY id" as SQLQuery) { row in try row.decode(Int64.self, "id") }
        }
        for (index, van) in fleet.enumerated() {
            let driver = try NetID("driver\(index + 1)")
            try await desk.startShift(driver: driver, van: van, now: start)
            vans.append(SimulatedVan(id: van, driver: driver, place: nil))
            events.add(.van(index), at: start)
        }
        events.add(.replan, at: start)
        let end = service.end.addingTimeInterval(3 * 3_600)

        loop: while let (at, kind) = events.next(), at <= end {
            clock.set(at)
            let now = clock.now
            switch kind {
            case .book(let index):
                pendingBookings -= 1
                if let id = try await book(requests.first { $0.index == index }!, &log) {
                    _ = try? await services.dispatch.approve(id.uuidString, actor: "dispatcher", now: now)
                }
            case .cancel(let index):
                guard let id = log.bookedIDs[index], let netID = log.netIDs[id] else { break }
                if (try? await rides.cancel(id, for: netID, now: now, lateWithin: 3_600)) != nil {
                    log.cancelled += 1
                    if options.etaTrace { log.cancelledAt[id] = now }
                }
            case .eta(let index):
                guard let id = log.bookedIDs[index] else { break }
                try await takeETA(of: id, etas: etas, replanner: replanner, now: now, log: &log)
            case .ready(let there, let attempt):
                pendingCalls -= 1
                if let again = try await ready(there, attempt: attempt, services: services, replanner: replanner, etas: etas, now: now, log: &log) {
                    events.add(.ready(there, attempt: attempt + 1), at: again)
                    pendingCalls += 1
                }
            case .replan:
                if replanning {
                    try await replan(replanner, etas: etas, now: now, log: &log)
                } else {
                    let projection = try await SimulationTimings.time(&log.timings.passes) { try await replanner.projection(day: day, now: now) }
                    log.alerted.formUnion(projection.lateAsPlanned)
                }
                let speeds = try await ServiceCalendarStore(pool: database.pool, timeZone: timeZone).roadSpeeds()
                let factor = RoadSpeeds.factor(speeds, at: now, timeZone: timeZone)
                if factor != log.speedFactors.last?.factor ?? 1 { log.speedFactors.append((now, factor)) }
                // The day is over when nothing holds a van and nobody is left to book.
                let holding = pendingBookings + pendingCalls > 0 ? 1 : try await holdingVans(now: now)
                guard holding > 0 else { break loop }
                events.add(.replan, at: now.addingTimeInterval(options.replanEvery))
            case .van(let index):
                let taps = log.taps
                if let next = try await step(&vans[index], now: now, estimator: estimator, etas: etas, rng: &rng, log: &log) {
                    events.add(.van(index), at: next)
                }
                // As the ETA feed tells the background planner (``RouteImprover/roadRunsLate()``): a tap
                // whose van's ETAs pass a window's end has the day re-planned at once, at most every late gap.
                if replanning, log.taps != taps, now.timeIntervalSince(log.lastReplan ?? .distantPast) >= lateGap,
                    let road = try await etas.van(vans[index].id, now: now), !road.late.isEmpty
                {
                    try await replan(replanner, etas: etas, now: now, log: &log)
                    log.promptReplans += 1
                }
            }
            // Drop-offs of riders with a will-call bring their "I'm ready".
            for (there, at) in log.readyDue {
                events.add(.ready(there, attempt: 0), at: at)
                pendingCalls += 1
            }
            log.readyDue.removeAll()
            // New bookings bring their ETA samples and late cancellations.
            for (index, id) in log.bookedIDs where !scheduled.contains(id) {
                scheduled.insert(id)
                let request = requests.first { $0.index == index }!
                if let lead = fates.cancelLead[index], let pickup = log.plannedPickups[id] {
                    events.add(.cancel(index), at: max(now, pickup.addingTimeInterval(-lead)))
                }
                if request.promise == .pickup, let window = log.windows[id] {
                    events.add(.eta(index), at: max(now, window.start.addingTimeInterval(-900)))
                }
            }
        }
        log.drivingSeconds = vans.reduce(0) { $0 + $1.driving }
        let ended = clock.now
        for index in vans.indices { vans[index].endWaitAboard(ended) }
        log.onboardWait = vans.reduce(0) { $0 + $1.onboardWait }
        log.vanHours = Double(vans.count) * max(0, ended.timeIntervalSince(start)) / 3_600
        return log
    }

    /// Takes the ETA a rider of `ride` would see now: ``ETAService``'s estimate of her pickup on
    /// the van holding the ride, as she is shown it (``VanETAs/rider(_:lead:)``: the later of the
    /// van's arrival and her window's start). Where the service has none (no van on the road for
    /// it, or its pickup not among the van's stops), the projection of the stored routes from the
    /// road (`RoadReplan.plannedRoutes`, the later of the stop's time and the window's start), counted apart.
    func takeETA(of ride: UUID, etas: ETAService, replanner: RoadReplanner, now: Date, log: inout Log) async throws {
        let vanID = try await database.pool.withConnection { conn in
            try conn.query("SELECT van_id FROM rides WHERE id = \(ride)" as SQLQuery) { row in try row.decode(Int64?.self, "van_id") }.first ?? nil
        }
        if let vanID, let road = try await etas.van(vanID, now: now) {
            if let shown = road.rider(ride, lead: .infinity) {
                log.eta[ride] = shown.at
                if options.etaTrace, let index = road.estimates.firstIndex(where: { $0.stop.rideID == ride && $0.stop.kind == .pickup }) {
                    log.etaTold[ride] = ETATrace.Told(
                        at: now, van: vanID, eta: shown.at, arrival: road.estimates[index].arrival,
                        plannedAt: road.estimates[index].stop.plannedAt, source: road.source.rawValue,
                        before: road.estimates[..<index].map { ETATrace.StopRef(ride: $0.stop.rideID, pickup: $0.stop.kind == .pickup) })
                }
                return
            }
            log.etaUnlisted.insert(ride)
        } else {
            log.etaOffRoad.insert(ride)
        }
        let projection = try await replanner.projection(day: day, now: now)
        if let stop = projection.plannedRoutes.values.lazy.flatMap({ $0 }).first(where: { $0.rideID == ride && $0.isPickup }) {
            log.eta[ride] = max(stop.at, log.windows[ride]?.start ?? stop.at)
        }
    }
}
