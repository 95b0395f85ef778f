import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin vans …`: the fleet.
struct VansCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vans",
        abstract: "Add, list, update and retire vans; issue a van's tracker token; see each van on the road.",
        subcommands: [Add.self, List.self, Update.self, Retire.self, Token.self, VansStatusCommand.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a van.")
        @Argument(help: "The van's name, e.g. \"Van 4\".") var name: String
        @Option(help: "Passenger seats.") var seats: Int
        @Option(help: "Wheelchair positions (0 if none).") var wheelchair: Int = 0
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await withDatabase { db in
                let van = try await VanStore(pool: db.pool).add(
                    name: name, seats: seats, wheelchairPositions: wheelchair, actor: try actor.resolved())
                say("added \(van.name) (\(van.seats) seats, \(van.wheelchairPositions) wheelchair)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List vans, active first.")
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            try await withDatabase { db in
                let vans = try await VanStore(pool: db.pool).list()
                if json { return try printJSON(vans) }
                printTable(
                    ["NAME", "SEATS", "WHEELCHAIR", "STATUS"],
                    vans.map {
                        [$0.name, "\($0.seats)", "\($0.wheelchairPositions)", $0.active ? "active" : "retired"]
                    })
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a van's seats, wheelchair positions or name.")
        @Argument(help: "The van's current name.") var name: String
        @Option(help: "New name.") var rename: String?
        @Option(help: "Passenger seats.") var seats: Int?
        @Option(help: "Wheelchair positions.") var wheelchair: Int?
        @OptionGroup var actor: ActorOptions

        func validate() throws {
            if rename == nil && seats == nil && wheelchair == nil {
                throw ValidationError("nothing to change: give --rename, --seats or --wheelchair")
            }
        }

        func run() async throws {
            try await withDatabase { db in
                let van = try await VanStore(pool: db.pool).update(
                    name: name, newName: rename, seats: seats, wheelchairPositions: wheelchair, actor: try actor.resolved())
                say("updated \(van.name) (\(van.seats) seats, \(van.wheelchairPositions) wheelchair)")
            }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Retire a van: it takes no new rides; lists its future rides to move.")
        @Argument(help: "The van's name.") var name: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await withDatabase { db in
                let rides = try await VanStore(pool: db.pool).retire(name: name, now: adminClock.now, actor: try actor.resolved())
                say("retired \(name)")
                if !rides.isEmpty {
                    say("\(rides.count) upcoming rides still on \(name); move them with `vanadmin rides move`:")
                    for ref in rides { say("  \(ref)") }
                }
            }
        }
    }
}
