import ArgumentParser
import Foundation
import Hummingbird
import Logging
import VanScheduler

/// `vand`: the van dispatch service.
@main
struct Vand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vand",
        abstract: "The dispatch and scheduling service for the accessibility van.",
        discussion: AppConfiguration.helpText,
        subcommands: [Serve.self],
        defaultSubcommand: Serve.self
    )
}

/// `vand serve`: the HTTP API.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API (the default).",
        discussion: AppConfiguration.helpText
    )

    func run() async throws {
        let configuration: AppConfiguration
        do {
            configuration = try AppConfiguration.fromEnvironment()
        } catch {
            throw ValidationError("\(error)")
        }
        var logger = Logger(label: "vand")
        logger.logLevel = configuration.logLevel
        let database: Database
        do {
            database = try await Database.open(settings: configuration.database, logger: logger)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(1)
        }
        let app = buildApplication(configuration: configuration, database: database, logger: logger)
        do {
            try await app.runService()
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}
