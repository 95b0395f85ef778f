import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import VanServices

/// `vand worker`: only the trigger loop (reminders and event delivery), no HTTP.
/// Run as many as you like against one database; each event is delivered once between them.
struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run only the trigger loop: reminders, webhook, rider inbox, log.",
        discussion: AppConfiguration.helpText
    )

    func run() async throws {
        try await runVand(http: false, loop: true)
    }
}

/// Exit status for a bad setting: EX_CONFIG from sysexits.h. The units say
/// `RestartPreventExitStatus=78`, so systemd does not restart into the same mistake.
let configurationErrorExitStatus: Int32 = 78

/// Reads the environment and makes the process logger. A bad setting is one line on stderr
/// and exit status 78; an unknown `VAND_*` variable (a typo, a renamed setting) is a warning.
func startupConfiguration(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (AppConfiguration, Logger) {
    let configuration: AppConfiguration
    do {
        configuration = try AppConfiguration.fromEnvironment(environment)
    } catch {
        FileHandle.standardError.write(Data("vand: \(error)\n".utf8))
        throw ExitCode(configurationErrorExitStatus)
    }
    bootstrapLogging(level: configuration.logLevel)
    var logger = Logger(label: "vand")
    logger.logLevel = configuration.logLevel
    for unknown in SettingSpec.unknown(in: environment) {
        let hint = unknown.suggestion.map { "; did you mean \($0)?" } ?? "; `vand --help` lists every setting"
        logger.warning("\(unknown.name) is not a vand setting and is ignored\(hint)")
    }
    return (configuration, logger)
}

/// The trigger loop as `vand serve` and `vand worker` run it.
func makeTriggerLoop(
    configuration: AppConfiguration, database: Database, logger: Logger, clock: any TimeSource = SystemTimeSource(), metrics: VandMetrics? = nil
) -> TriggerLoop {
    var loopLogger = logger
    loopLogger[metadataKey: "component"] = "events"
    return TriggerLoop(
        pool: database.pool, settings: configuration.events, timeZone: configuration.timeZone, hotline: configuration.hotline, clock: clock,
        logger: loopLogger, metrics: metrics,
        standing: NoShowStanding(
            pool: database.pool, rule: configuration.road.noShowRule, timeZone: configuration.timeZone, hotline: configuration.hotline))
}

/// The van trail's pruning, beside the trigger loop (`vand serve`, `vand worker`).
func makeTrailPruner(configuration: AppConfiguration, database: Database, logger: Logger) -> TrailPruner {
    var pruneLogger = logger
    pruneLogger[metadataKey: "component"] = "road"
    let positions = PositionService(pool: database.pool, clock: SystemTimeSource(), settings: configuration.road)
    return TrailPruner(positions: positions, logger: pruneLogger)
}

/// The background planner as `vand serve` and `vand api` run it (where bookings are made).
func makeRouteImprover(configuration: AppConfiguration, database: Database, logger: Logger, metrics: VandMetrics? = nil) -> RouteImprover {
    var plannerLogger = logger
    plannerLogger[metadataKey: "component"] = "planner"
    return RouteImprover(
        pool: database.pool, timeZone: configuration.timeZone, settings: configuration.improvement, logger: plannerLogger, metrics: metrics,
        positionStale: configuration.road.positionStale)
}

/// One line per log record for the whole process: journald's priority prefix when
/// `JOURNAL_STREAM` is set (running under systemd), a timestamped line otherwise.
func bootstrapLogging(level: Logger.Level) {
    let journald = ProcessInfo.processInfo.environment["JOURNAL_STREAM"].map { !$0.isEmpty } ?? false
    LoggingSystem.bootstrap { label in
        var handler = LineLogHandler(label: label, journald: journald)
        handler.logLevel = level
        return handler
    }
}
