import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
import VanScheduler

/// `vand`: the van dispatch service.
@main
struct Vand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vand",
        abstract: "The dispatch and scheduling service for the accessibility van.",
        discussion: AppConfiguration.helpText,
        subcommands: [Serve.self, Worker.self],
        defaultSubcommand: Serve.self
    )
}

/// `vand serve`: the HTTP API.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API and run the trigger loop (the default).",
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
        let app = buildApplication(configuration: configuration, database: database, logger: logger)
        // The HTTP server and the trigger loop in one service group: SIGTERM/SIGINT stop
        // both gracefully (the server last-in first-out, the loop after its batch in hand).
        let loop = makeTriggerLoop(configuration: configuration, database: database, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: loop), .init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
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
