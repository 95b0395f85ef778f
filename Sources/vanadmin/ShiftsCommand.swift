import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin shifts …`: drivers' shifts.
struct ShiftsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shifts",
        abstract: "List open shifts; end a van's shift.",
        subcommands: [List.self, End.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the open shifts.")
        @Flag(help: "Print JSON for scripts.") var json = false

        func run() async throws {
            try await withDatabase { db in
                let shifts = try await ShiftService(pool: db.pool, clock: adminClock).open()
                if json { return try printJSON(shifts.map(ShiftOutput.init)) }
                let zone = try serviceTimeZone()
                printTable(
                    ["VAN", "DRIVER", "SINCE"],
                    shifts.map {
                        [$0.vanName, $0.driverNetID.rawValue, ServiceTime(timeZone: zone).text($0.startedAt, .record)]
                    })
            }
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the open shift of a van (audited).")
        @Argument(help: "The van's name, e.g. \"Van 1\".") var van: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let who = try actor.resolved()
            try await withDatabase { db in
                let shift = try await ShiftService(pool: db.pool, clock: adminClock).end(vanNamed: van, actor: who)
                say("ended the shift of \(shift.driverNetID) on \(shift.vanName)")
            }
        }
    }
}

/// A shift for `--json`.
struct ShiftOutput: Encodable {
    let id: Int64
    let van: String
    let van_id: Int64
    let driver: String
    let started_at: Date
    let ended_at: Date?
    let ended_by: String?

    init(_ shift: Shift) {
        id = shift.id
        van = shift.vanName
        van_id = shift.vanID
        driver = shift.driverNetID.rawValue
        started_at = shift.startedAt
        ended_at = shift.endedAt
        ended_by = shift.endedBy
    }
}
