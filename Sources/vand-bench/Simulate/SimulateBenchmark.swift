import Foundation
import Logging
import NIOPosix
import VanDomain
import VanPostgres
import VanScheduler
import VanServices

/// `vand-bench simulate`: a seeded campus day booked as `vand-bench campus` books it, then driven
/// on a throwaway embedded PostgreSQL twice, with and without re-planning from the road, by
/// simulated drivers through the driver services. Prints both runs' figures; the last line is
/// `on-time pickups: A% with re-planning, B% without`.
struct SimulateBenchmark {
    let options: SimulateOptions

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let timeZone = TimeZone(identifier: "America/New_York")!
        let generator = CampusDayGenerator(timeZone: timeZone, requests: options.rides, seed: options.seed)
        let requests = generator.generate()
        let fates = RiderFates(requests: requests, options: options)
        let cluster = EmbeddedPostgres(
            directory: "/tmp/vand-bench-simulate-\(ProcessInfo.processInfo.processIdentifier)", ephemeral: true,
            port: 55_434, logger: logger)
        try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
        defer {
            try? cluster.forceStop(mode: "fast")
            try? FileManager.default.removeItem(atPath: cluster.directory)
        }
        if !options.json { print(options.commandLine) }
        var runs: [Bool: SimulationFigures] = [:]
        for replanning in [true, false] {
            let name = replanning ? "simulate_replanning" : "simulate_plain"
            let database = try await Self.freshDatabase(name, cluster: cluster, logger: logger)
            let fleet = CampusFleet(vans: options.vans)
            let sites = try await fleet.install(into: database, riders: max(generator.riders, requests.count))
            let calendar = ServiceCalendarStore(pool: database.pool, timeZone: timeZone)
            var settings = try await calendar.settings()
            settings.unhurriedMarginMinutes = options.unhurried
            settings.willCallHoldMinutes = options.willCallHold
            try await calendar.setSettings(settings, actor: "vand-bench")
            let scheduler = try await calendar.scheduler(around: generator.midnight)
            let clock = SimulationClock(generator.midnight.addingTimeInterval(-86_400))
            let desk = try await RoadServicesDesk.make(database: database, timeZone: timeZone, clock: clock, drivers: options.vans)
            let started = ContinuousClock.now
            let simulation = RoadSimulation(
                options: options, database: database, desk: desk, timeZone: timeZone, requests: requests,
                sites: sites, fates: fates, replanning: replanning, clock: clock, day: generator.day,
                windowWidth: scheduler.windowWidth)
            let log = try await simulation.run()
            var figures = try await SimulationFigures.measure(
                database, day: generator.day.interval(in: timeZone), log: log,
                estimator: scheduler.estimator, drivingSeconds: log.drivingSeconds)
            let elapsed = ContinuousClock.now - started
            if options.timings { figures.timings = log.timings }
            if !options.json {
                print(
                    Self.render(
                        figures, replanning: replanning, replans: log.replans, promptReplans: log.promptReplans,
                        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
                if options.timings { print(log.timings.line) }
                let speeds = try await ServiceCalendarStore(pool: database.pool, timeZone: timeZone).roadSpeeds()
                let used = log.speedFactors.map { String(format: "%.2f from %@", $0.factor, ServiceTime(timeZone: timeZone).text($0.at, .clockTime)) }
                print(
                    "  road as learned: " + RoadSpeeds.summary(speeds) + "; in force at the planner's looks: "
                        + (used.isEmpty ? "the model's, all day" : used.joined(separator: ", ")))
                if options.etaTrace { print(ETATrace.lines(log, windows: log.windows).joined(separator: "\n")) }
            }
            runs[replanning] = figures
            await database.close()
        }
        // Hindsight: the same requests, all known at dawn, booked by the same engine, no noise.
        let database = try await Self.freshDatabase("simulate_hindsight", cluster: cluster, logger: logger)
        let sites = try await CampusFleet(vans: options.vans).install(into: database, riders: max(generator.riders, requests.count))
        let dawn = generator.midnight
        let known = requests.map { request in
            var early = request
            early.arrival = min(request.arrival, dawn)
            return early
        }
        let tally = try await CampusDayRun(database: database, model: .shared, sites: sites, timeZone: timeZone).book(known, seed: options.seed)
        let hindsight = SimulationJSON.Hindsight(
            booked: tally.served,
            drivingMin: (try await CampusRoutes.load(from: database, timeZone: timeZone, around: dawn).drivingMinutes * 10).rounded() / 10)
        await database.close()
        guard let with = runs[true], let without = runs[false] else { return }
        if options.json {
            print(try SimulationJSON(withReplanning: .init(with), withoutReplanning: .init(without), hindsight: hindsight).text())
            return
        }
        print(
            String(
                format: "hindsight (the same requests known at dawn, no noise): %d booked, %.0f min driving", hindsight.booked, hindsight.drivingMin))
        print(String(format: "on-time pickups: %.1f%% with re-planning, %.1f%% without", with.onTimeShare, without.onTimeShare))
    }

    /// A new database `name` on `cluster`, migrated.
    static func freshDatabase(_ name: String, cluster: EmbeddedPostgres, logger: Logger) async throws -> Database {
        try await NIOThreadPool.singleton.runIfActive { try cluster.createDatabase(name) }
        let database = Database(
            pool: PGPool(configuration: PGConfiguration(connectionString: cluster.connectionString(database: name)), size: 2, logger: logger))
        _ = try await MigrationRunner(directory: VandPaths.migrations(), logger: logger).migrate(pool: database.pool)
        return database
    }

    static func render(_ f: SimulationFigures, replanning: Bool, replans: Int, promptReplans: Int, seconds: Double) -> String {
        func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "–" : String(format: "%.1f%%", Double(a) / Double(b) * 100) }
        return [
            replanning
                ? "with re-planning from the road (every run of the planner re-plans; \(replans) runs, \(promptReplans) of them at once on a tap"
                    + " whose van ran late):" : "without re-planning (the plan as booked):",
            "  rides booked \(f.booked), refused \(f.refused), cancelled late \(f.cancelled) (of \(f.requests) requests)",
            String(
                format: "  negotiated (booked at another time than asked): %d, moved %.0f min p95; denied (49 CFR 37.131(b)): %d",
                f.negotiatedMinutes.count, f.negotiatedMinutes.quantile(0.95), f.denied),
            "  refused by how far ahead the rider asked: \(f.refusalsByLead)",
            "  on-time pickups: \(pct(f.onTime, f.pickups)) of \(f.pickups) (never reached: \(f.neverReached))",
            String(
                format: "  late pickups: %d, late by %.1f min mean, %.1f min p95", f.lateMinutes.count, f.lateMinutes.mean,
                f.lateMinutes.quantile(0.95)),
            "  arrive-by drop-offs on time: \(pct(f.arriveByOnTime, f.arriveBy)) of \(f.arriveBy)",
            String(format: "  ride time over direct: %.2f× mean, %.2f× p95", f.rideOverDirect.mean, f.rideOverDirect.quantile(0.95)),
            String(
                format: "  minutes aboard beyond the direct drive: %.1f mean, %.1f p95; vans waiting for a window with riders aboard: %.0f min",
                f.minutesAboardOverDirect.mean, f.minutesAboardOverDirect.quantile(0.95), f.onboardWaitMinutes),
            String(format: "  driving: %.0f min; %.2f rides per van-hour on shift (%.1f van-hours)", f.drivingMinutes, f.ridesPerVanHour, f.vanHours),
            "  no-shows detected: \(f.noShowTaps) tapped by drivers, \(f.dispatcherNoShows) recorded by the dispatcher (van too late for the rule)",
            "  rides moved by re-planning: \(f.moved)",
            "  late alerts raised: \(f.alerts) rides",
            String(
                format: "  ETA error 15 min before pickup (the rider's ETA from ETAService against the arrived tap): %.1f min mean absolute,"
                    + " %.1f min p95 (%d pickups; %d re-taken when a move pushed a fresh one; %d from the projection: %d van not on the road,"
                    + " %d pickup not on the van's stops)",
                f.etaErrors.mean, f.etaErrors.quantile(0.95), f.etaErrors.count, f.etaRetaken, f.etaOffRoad + f.etaUnlisted, f.etaOffRoad,
                f.etaUnlisted),
            f.willCallRides == 0
                ? nil
                : String(
                    format: "  will-calls: %d of %d rides there called \"I'm ready\", %d refused at least once, %d never got a ride;"
                        + " wait from her first call to the pickup %.1f min p50, %.1f min p95 (promised %.1f min p95); %d booked on the try"
                        + " after a re-plan on refusal (%d such re-plans); %d ways back not reached",
                    f.willCalls, f.willCallRides, f.willCallRefused, f.willCallDenied, f.willCallWaits.quantile(0.5),
                    f.willCallWaits.quantile(0.95), f.willCallPromisedWaits.quantile(0.95), f.willCallSavedByReplan, f.willCallReplans,
                    f.willCallNotReached),
            f.refusals.isEmpty ? nil : "  taps refused (first few): " + f.refusals.joined(separator: "; "),
            String(format: "  simulated in %.1f s", seconds),
        ].compactMap { $0 }.joined(separator: "\n")
    }
}
