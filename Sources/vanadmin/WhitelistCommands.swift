import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin whitelist …`: who may book rides.
struct WhitelistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whitelist",
        abstract: "Keep the list of riders cleared by the disabilities office.",
        discussion: "Someone not on the list can log in but cannot book. An entry with --until stops counting after that day.",
        subcommands: [WhitelistAdd.self, WhitelistRemove.self, WhitelistList.self, WhitelistImport.self]
    )
}

/// `vanadmin whitelist add NETID`.
struct WhitelistAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a net ID, or change the given details of one already listed."
    )

    @Argument(help: "The rider's net ID.") var netID: String
    @Option(help: "Name as the office has it.") var name: String?
    @Option(help: "E-mail address.") var email: String?
    @Option(help: "A note for dispatchers, e.g. why the entry is temporary.") var note: String?
    @Option(help: ArgumentHelp("Last day the entry counts (yyyy-MM-dd), or 'none' for no end.", valueName: "date")) var until: String?
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let netID = try parseNetID(self.netID)
        var patch = WhitelistPatch(netID: netID)
        do {
            if let name { patch.name = .some(name.isEmpty ? nil : name) }
            if let note { patch.note = .some(note.isEmpty ? nil : note) }
            if let email { patch.email = .some(email.isEmpty ? nil : try EmailAddress(email, field: "--email")) }
            if let until { patch.validUntil = .some(until.lowercased() == "none" ? nil : try LocalDate(until, field: "--until")) }
        } catch {
            throw CLIError("\(error)")
        }
        let who = try actor.resolved()
        try await AccountsTools.run { tools in
            switch try await tools.whitelist.add(patch, actor: who) {
            case .added: say("added \(netID) to the whitelist")
            case .updated: say("updated \(netID) on the whitelist")
            case .unchanged: say("\(netID) is already on the whitelist with these details; nothing changed")
            }
        }
    }
}

/// `vanadmin whitelist remove NETID`.
struct WhitelistRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a net ID. The rider keeps their login but can no longer book."
    )

    @Argument(help: "The rider's net ID.") var netID: String
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let netID = try parseNetID(self.netID)
        let who = try actor.resolved()
        try await AccountsTools.run { tools in
            try await tools.whitelist.remove(netID, actor: who)
            say("removed \(netID) from the whitelist")
        }
    }
}

/// `vanadmin whitelist list`.
struct WhitelistList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the whitelist.")

    @Flag(help: "Print JSON for scripts instead of a table.") var json = false

    struct Item: Encodable {
        let net_id: String
        let name: String?
        let email: String?
        let note: String?
        let valid_until: String?
        let active: Bool
        let has_account: Bool
        let added_by: String
        let added_at: Date
    }

    func run() async throws {
        try await AccountsTools.run { tools in
            let listings = try await tools.whitelist.list()
            if json {
                try printJSON(
                    listings.map {
                        Item(
                            net_id: $0.entry.netID.rawValue, name: $0.entry.name, email: $0.entry.email?.rawValue, note: $0.entry.note,
                            valid_until: $0.entry.validUntil?.description, active: $0.isActive, has_account: $0.hasAccount,
                            added_by: $0.entry.addedBy, added_at: $0.entry.addedAt)
                    })
                return
            }
            guard !listings.isEmpty else {
                say("the whitelist is empty; add people with: vanadmin whitelist add NETID, or import the office's CSV")
                return
            }
            printTable(
                ["NET ID", "NAME", "EMAIL", "UNTIL", "STATUS", "ACCOUNT", "ADDED BY", "NOTE"],
                listings.map { listing in
                    let entry = listing.entry
                    return [
                        entry.netID.rawValue, entry.name ?? "-", entry.email?.rawValue ?? "-", entry.validUntil?.description ?? "-",
                        listing.isActive ? "active" : "expired", listing.hasAccount ? "yes" : "no", entry.addedBy, entry.note ?? "",
                    ]
                })
            let expired = listings.filter { !$0.isActive }.count
            say("\(listings.count) entries, \(listings.count - expired) active, \(expired) expired")
        }
    }
}
