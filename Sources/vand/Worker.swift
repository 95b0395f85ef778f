import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import VanScheduler

/// `vand worker`: only the trigger loop (reminders and event delivery), no HTTP.
/// Run as many as you like against one database; each event is delivered once between them.
struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run only the trigger loop: reminders, webhook, rider inbox, log.",
        discussion: AppConfiguration.helpText
    )

    func run() async throws {
        let (configuration, logger) = try startupConfiguration()
        let database: Database
        do {
            database = try await Database.open(settings: configuration.database, logger: logger)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(1)
        }
        let loop = makeTriggerLoop(configuration: configuration, database: database, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: loop)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        ))
        do {
            try await group.run()
        } catch {
            await database.close()
            throw error
        }
        await database.close()
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
    var logger = Logger(label: "vand")
    logger.logLevel = configuration.logLevel
    return (configuration, logger)
}

/// The trigger loop as `vand serve` and `vand worker` run it.
func makeTriggerLoop(configuration: AppConfiguration, database: Database, logger: Logger, clock: any TimeSource = SystemTimeSource()) -> TriggerLoop {
    var loopLogger = logger
    loopLogger[metadataKey: "component"] = "events"
    return TriggerLoop(pool: database.pool, settings: configuration.events, timeZone: configuration.timeZone, clock: clock, logger: loopLogger)
}
