import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin dispatchers …`: dispatcher accounts for the console at `/dispatch`.
struct DispatchersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatchers",
        abstract: "Create dispatcher logins for the console at /dispatch, list and disable them.",
        subcommands: [Add.self, List.self, Disable.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a dispatcher login with a temporary password (shown once).",
            discussion:
                "The dispatcher signs in on the same page as riders, chooses her own password, and lands on /dispatch. Her actions there are audited with her name."
        )
        @Argument(help: "The dispatcher's net ID.") var netID: String
        @Option(help: "The dispatcher's name (the audit log records it).") var name: String
        @Option(help: "A phone number.") var phone: String?
        @Flag(help: "Print JSON for scripts.") var json = false
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await addStaff(netID: netID, phone: phone, actor: actor, verb: "added dispatcher", json: json) { tools, netID, phone, who in
                try await DispatcherAdministration(riders: tools.riders).add(netID, name: name, phone: phone, actor: who)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List dispatcher accounts.")
        @Flag(help: "Print JSON for scripts.") var json = false

        func run() async throws {
            try await AccountsTools.run { tools in
                let dispatchers = try await DispatcherAdministration(riders: tools.riders).list()
                if json { return try printJSON(dispatchers.map(StaffOutput.init)) }
                printTable(
                    ["NET ID", "NAME", "PHONE", "STATUS"],
                    dispatchers.map {
                        [$0.netID.rawValue, $0.name ?? "", $0.phone?.rawValue ?? "", StaffOutput.status($0)]
                    })
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a dispatcher from signing in; ends her sessions at once.")
        @Argument(help: "The dispatcher's net ID.") var netID: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let netID = try parseNetID(self.netID)
            let who = try actor.resolved()
            try await AccountsTools.run { tools in
                do {
                    try await DispatcherAdministration(riders: tools.riders).disable(netID, actor: who)
                    say("disabled dispatcher \(netID)")
                } catch AccountError.noSuchRider {
                    throw CLIError("\(netID) has no dispatcher account; see: vanadmin dispatchers list")
                }
            }
        }
    }
}

/// `drivers add` and `dispatchers add`: reads the net ID, phone and actor, runs `add`, and prints
/// the new login's temporary password once (or its JSON); misuse is one line and exit 1.
func addStaff(
    netID text: String, phone phoneText: String?, actor: ActorOptions, verb: String, json: Bool,
    add: @escaping @Sendable (AccountsTools, NetID, PhoneNumber?, String) async throws -> Invitation
) async throws {
    let netID = try parseNetID(text)
    let phone: PhoneNumber?
    do { phone = try phoneText.map { try PhoneNumber($0, field: "--phone") } } catch { throw CLIError("\(error)") }
    let who = try actor.resolved()
    try await AccountsTools.run { tools in
        try showInvitation(try await add(tools, netID, phone, who), verb: verb, json: json, tools: tools)
    }
}

/// A driver's or dispatcher's account as `--json` prints it.
struct StaffOutput: Encodable {
    let net_id: String
    let name: String?
    let phone: String?
    let disabled: Bool
    let must_change_password: Bool

    init(_ account: Rider) {
        net_id = account.netID.rawValue
        name = account.name
        phone = account.phone?.rawValue
        disabled = account.disabled
        must_change_password = account.mustChangePassword
    }

    /// "disabled", "temporary password" or "active".
    static func status(_ account: Rider) -> String {
        account.disabled ? "disabled" : (account.mustChangePassword ? "temporary password" : "active")
    }
}
