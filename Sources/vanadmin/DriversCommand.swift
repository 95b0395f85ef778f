import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin drivers …`: driver accounts.
struct DriversCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drivers",
        abstract: "Create driver logins, list and disable them.",
        subcommands: [Add.self, List.self, Disable.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a driver login with a temporary password (shown once).",
            discussion: "The driver signs in on the same page as riders, chooses her own password, and lands on /driver."
        )
        @Argument(help: "The driver's net ID.") var netID: String
        @Option(help: "The driver's name.") var name: String
        @Option(help: "A phone number the dispatcher can call.") var phone: String?
        @Flag(help: "Print JSON for scripts.") var json = false
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await addStaff(netID: netID, phone: phone, actor: actor, verb: "added driver", json: json) { tools, netID, phone, who in
                try await DriverAdministration(riders: tools.riders).add(netID, name: name, phone: phone, actor: who)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List driver accounts and their open shifts.")
        @Flag(help: "Print JSON for scripts.") var json = false

        func run() async throws {
            try await AccountsTools.run { tools in
                let drivers = try await DriverAdministration(riders: tools.riders).list()
                if json { return try printJSON(drivers.map(DriverOutput.init)) }
                printTable(
                    ["NET ID", "NAME", "PHONE", "STATUS", "ON SHIFT"],
                    drivers.map {
                        [
                            $0.account.netID.rawValue, $0.account.name ?? "", $0.account.phone?.rawValue ?? "",
                            StaffOutput.status($0.account),
                            $0.shift?.vanName ?? "-",
                        ]
                    })
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a driver from signing in; ends her sessions and her open shift.")
        @Argument(help: "The driver's net ID.") var netID: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let netID = try parseNetID(self.netID)
            let who = try actor.resolved()
            try await AccountsTools.run { tools in
                do {
                    let ended = try await DriverAdministration(riders: tools.riders).disable(netID, actor: who)
                    let shift = ended.map { "; ended her shift on \($0.vanName)" } ?? ""
                    say("disabled driver \(netID)\(shift)")
                } catch AccountError.noSuchRider {
                    throw CLIError("\(netID) has no driver account; see: vanadmin drivers list")
                }
            }
        }
    }
}

private struct DriverOutput: Encodable {
    let net_id: String
    let name: String?
    let phone: String?
    let disabled: Bool
    let must_change_password: Bool
    let van: String?

    init(_ summary: DriverAdministration.Summary) {
        let account = StaffOutput(summary.account)
        net_id = account.net_id
        name = account.name
        phone = account.phone
        disabled = account.disabled
        must_change_password = account.must_change_password
        van = summary.shift?.vanName
    }
}
