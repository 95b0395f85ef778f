import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
import VanServices

/// `vand`: the van dispatch service.
@main
struct Vand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vand",
        abstract: "The dispatch and scheduling service for the accessibility van.",
        discussion: AppConfiguration.helpText,
        subcommands: [Serve.self, API.self, Worker.self],
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
        try await runVand(http: true, loop: true)
    }
}

/// `vand api`: only the HTTP API (run the loop elsewhere, e.g. `vand worker`).
struct API: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Serve only the HTTP API, without the trigger loop.",
        discussion: AppConfiguration.helpText
    )

    func run() async throws {
        try await runVand(http: true, loop: false)
    }
}

