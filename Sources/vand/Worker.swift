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


/// Reads the environment (a bad setting is a usage error) and makes the process logger.
func startupConfiguration() throws -> (AppConfiguration, Logger) {
    let configuration: AppConfiguration
    do {
        configuration = try AppConfiguration.fromEnvironment()
    } catch {
        throw ValidationError("\(error)")
    }
    bootstrapLogging(level: configuration.logLevel)
    var logger = Logger(label: "vand")
    logger.logLevel = configuration.logLevel
    return (configuration, logger)
}

/// The trigger loop as `vand serve` and `vand worker` run it.
func makeTriggerLoop(
    configuration: AppConfiguration, database: Database, logger: Logger, clock: any TimeSource = SystemTimeSource(), metrics: VandMetrics? = nil
) -> TriggerLoop {
    var loopLogger = logger
    loopLogger[metadataKey: "component"] = "events"
    return TriggerLoop(pool: database.pool, settings: configuration.events, timeZone: configuration.timeZone, clock: clock, logger: loopLogger, metrics: metrics)
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
