import ArgumentParser
import Foundation
import VanServices

/// `vanadmin events …`: webhook deliveries that failed.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List parked webhook deliveries and send them again.",
        subcommands: [EventsFailed.self, EventsReplay.self]
    )
}

/// `vanadmin events failed`.
struct EventsFailed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failed",
        abstract: "List webhook deliveries parked after their last attempt.",
        discussion: "A delivery is parked after VAND_WEBHOOK_MAX_ATTEMPTS failed attempts (default 8). Send it again with `vanadmin events replay`."
    )

    @Flag(help: "Also list deliveries still being retried.") var retrying = false
    @Flag(help: "Print JSON for scripts.") var json = false

    func run() async throws {
        try await withDatabase { db in
            let failed = try await DeliveryQueue(pool: db.pool).failedWebhooks(includeRetrying: retrying)
            if json { return try printJSON(failed) }
            if failed.isEmpty {
                say(retrying ? "no failed webhook deliveries" : "no parked webhook deliveries")
                return
            }
            let zone = try serviceTimeZone()
            printTable(
                ["EVENT", "KIND", "RIDE", "ATTEMPTS", "STATE", "LAST ERROR"],
                failed.map { item in
                    let state = item.parkedAt.map { "parked \(format($0, zone))" } ?? item.nextAttemptAt.map { "retry \(format($0, zone))" } ?? "due"
                    return [
                        "\(item.eventID)", item.kind, item.rideRef ?? item.rideID.uuidString.lowercased(), "\(item.attempts)", state,
                        item.lastError ?? "",
                    ]
                })
        }
    }
}

/// `vanadmin events replay ID|--all`.
struct EventsReplay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Send parked webhook deliveries again (with a fresh budget of attempts)."
    )

    @Argument(help: "The event id (see `vanadmin events failed`).") var eventID: Int64?
    @Flag(help: "Replay every parked delivery.") var all = false
    @OptionGroup var actor: ActorOptions

    func validate() throws {
        if (eventID == nil) == !all { throw ValidationError("give one event id or --all") }
    }

    func run() async throws {
        let who = try actor.resolved()
        try await withDatabase { db in
            let count = try await DeliveryQueue(pool: db.pool).replay(eventID: all ? nil : eventID, actor: who)
            if count == 0 {
                throw CLIError(all ? "no parked deliveries to replay" : "event \(eventID!) has no parked delivery")
            }
            say("replaying \(count) deliver\(count == 1 ? "y" : "ies"); a running vand sends \(count == 1 ? "it" : "them") now")
        }
    }
}
