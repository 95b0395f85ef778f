import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin riders …`: rider logins.
struct RidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "riders",
        abstract: "Create rider logins, reset passwords, disable and enable accounts; a rider's no-show standing.",
        subcommands: [RidersInvite.self, RidersResetPassword.self, RidersDisable.self, RidersEnable.self, RidersList.self, RidersStanding.self]
    )
}

/// Shared output of `invite` and `reset-password`.
private struct InvitationOutput: Encodable {
    let net_id: String
    let temporary_password: String
    let expires_at: Date

    init(_ invitation: Invitation) {
        net_id = invitation.netID.rawValue
        temporary_password = invitation.temporaryPassword
        expires_at = invitation.expiresAt
    }
}

/// Prints a new login's temporary password once (riders invite and reset-password, drivers add), or its JSON.
func showInvitation(_ invitation: Invitation, verb: String, json: Bool, tools: AccountsTools) throws {
    if json {
        try printJSON(InvitationOutput(invitation))
        return
    }
    say("\(verb) \(invitation.netID)")
    say("temporary password: \(invitation.temporaryPassword)")
    say("shown only this once; it works until \(tools.format(invitation.expiresAt)) and must be changed at first login")
}

/// `vanadmin riders invite NETID`.
struct RidersInvite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Create a login with a temporary password (shown once).",
        discussion: "Name and e-mail default to the rider's whitelist entry. The password expires after VAND_TEMP_PASSWORD_DAYS (default 7)."
    )

    @Argument(help: "The rider's net ID.") var netID: String
    @Option(help: "Name (default: from the whitelist).") var name: String?
    @Option(help: "E-mail address (default: from the whitelist).") var email: String?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let netID = try parseNetID(self.netID)
        let email: EmailAddress?
        do { email = try self.email.map { try EmailAddress($0, field: "--email") } } catch { throw CLIError("\(error)") }
        let who = try actor.resolved()
        try await AccountsTools.run { tools in
            let invitation = try await tools.riders.invite(netID, name: name, email: email, actor: who)
            try showInvitation(invitation, verb: "invited", json: json, tools: tools)
        }
    }
}

/// `vanadmin riders reset-password NETID`.
struct RidersResetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Issue a new temporary password; ends the rider's sessions and any lockout."
    )

    @Argument(help: "The rider's net ID.") var netID: String
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let netID = try parseNetID(self.netID)
        let who = try actor.resolved()
        try await AccountsTools.run { tools in
            let invitation = try await tools.riders.resetPassword(netID, actor: who)
            try showInvitation(invitation, verb: "reset the password of", json: json, tools: tools)
        }
    }
}

/// `vanadmin riders disable NETID`.
struct RidersDisable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Stop a rider from logging in; ends their sessions at once."
    )

    @Argument(help: "The rider's net ID.") var netID: String
    @Option(help: "Why, for the audit log.") var reason: String?
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let netID = try parseNetID(self.netID)
        let who = try actor.resolved()
        try await AccountsTools.run { tools in
            let ended = try await tools.riders.disable(netID, reason: reason, actor: who)
            say("disabled \(netID); ended \(ended) session\(ended == 1 ? "" : "s")")
        }
    }
}

/// `vanadmin riders enable NETID`.
struct RidersEnable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a disabled rider log in again.")

    @Argument(help: "The rider's net ID.") var netID: String
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let netID = try parseNetID(self.netID)
        let who = try actor.resolved()
        try await AccountsTools.run { tools in
            try await tools.riders.enable(netID, actor: who)
            say("enabled \(netID)")
        }
    }
}

/// `vanadmin riders list`.
struct RidersList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List rider accounts.")

    @Flag(help: "Print JSON for scripts instead of a table.") var json = false

    struct Item: Encodable {
        let net_id: String
        let name: String?
        let email: String?
        let phone: String?
        let status: String
        let whitelisted: Bool
        let whitelisted_until: String?
        let live_sessions: Int
        let created_at: Date
    }

    func run() async throws {
        try await AccountsTools.run { tools in
            let now = tools.riders.clock.now
            let summaries = try await tools.riders.list()
            func status(_ rider: Rider) -> String {
                if rider.disabled { return "disabled" }
                if rider.mustChangePassword {
                    return (rider.temporaryPasswordExpiresAt ?? now) > now ? "invited" : "temporary password expired"
                }
                return "active"
            }
            if json {
                try printJSON(
                    summaries.map {
                        Item(
                            net_id: $0.rider.netID.rawValue, name: $0.rider.name, email: $0.rider.email?.rawValue, phone: $0.rider.phone?.rawValue,
                            status: status($0.rider), whitelisted: $0.eligibility.isEligible, whitelisted_until: $0.eligibility.until?.description,
                            live_sessions: $0.liveSessions, created_at: $0.rider.createdAt)
                    })
                return
            }
            guard !summaries.isEmpty else {
                say("no rider accounts yet; create one with: vanadmin riders invite NETID")
                return
            }
            printTable(
                ["NET ID", "NAME", "STATUS", "WHITELISTED", "SESSIONS", "CREATED"],
                summaries.map { summary in
                    let whitelisted =
                        summary.eligibility.isEligible
                        ? (summary.eligibility.until.map { "until \($0)" } ?? "yes")
                        : (summary.eligibility.until.map { "expired \($0)" } ?? "no")
                    return [
                        summary.rider.netID.rawValue, summary.rider.name ?? "-", status(summary.rider), whitelisted,
                        String(summary.liveSessions), tools.format(summary.rider.createdAt),
                    ]
                })
        }
    }
}
