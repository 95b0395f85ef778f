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
        subcommands: [Serve.self, API.self, Worker.self, SettingsCommand.self],
        defaultSubcommand: Serve.self
    )
}

/// `vand settings`: the settings table as the documents that are made from it.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Print the settings table: as in --help (default), as the README's Markdown table, or as deploy/vand.env.example.",
        discussion: "scripts/settings-docs writes the README table and the env example with this; a test fails when they drift."
    )
    @Flag(help: "The README's Markdown table.") var markdown = false
    @Flag(help: "The env file example (deploy/vand.env.example).") var envExample = false

    func run() throws {
        if markdown {
            print(SettingSpec.markdownTable)
        } else if envExample {
            print(SettingSpec.environmentExample, terminator: "")
        } else {
            print(SettingSpec.helpText())
        }
    }
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
