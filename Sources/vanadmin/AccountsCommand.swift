import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `--as NAME`: who is acting, for the audit log.
struct ActorOptions: ParsableArguments {
    @Option(name: .customLong("as"), help: ArgumentHelp("Your name for the audit log (default: your login name).", valueName: "name"))
    var actor: String?

    /// The name to record: `--as`, else the person behind sudo, else the login name (``loginActorName()``).
    func resolved() throws -> String {
        if let actor {
            let name = actor.trimmingCharacters(in: .whitespaces)
            guard (1...64).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw CLIError("--as must be a name of 1 to 64 characters")
            }
            return name
        }
        return loginActorName()
    }
}

/// What the account commands need, built from the environment and an open database.
struct AccountsTools {
    let riders: RiderAdministration
    let whitelist: WhitelistAdministration
    let timeZone: TimeZone

    /// Opens the database, runs `body`, closes it; account refusals become one-line errors.
    static func run(_ body: @escaping (AccountsTools) async throws -> Void) async throws {
        try await withServices { services in
            let settings = services.settings.accounts, timeZone = services.settings.timeZone
            let riders = RiderAdministration(
                pool: services.pool, hasher: PasswordHasher(cost: settings.bcryptCost),
                settings: settings, clock: services.clock, timeZone: timeZone
            )
            do {
                try await body(AccountsTools(riders: riders, whitelist: WhitelistAdministration(riders: riders), timeZone: timeZone))
            } catch let error as AccountError {
                throw CLIError(Self.message(error))
            }
        }
    }

    /// What the dispatcher should read for a refusal.
    static func message(_ error: AccountError) -> String {
        switch error {
        case .noSuchRider(let netID): "\(netID) has no rider account; create one with: vanadmin riders invite \(netID)"
        case .riderExists(let netID): "\(netID) already has a rider account; to issue a new password use: vanadmin riders reset-password \(netID)"
        case .notWhitelisted(let netID): "\(netID) is not on the whitelist; see: vanadmin whitelist list"
        default: error.description
        }
    }

    /// `2026-11-28 14:05 EST` in the service time zone.
    func format(_ date: Date) -> String {
        ServiceTime(timeZone: timeZone).text(date, .record)
    }
}

/// Parses a net ID argument, or fails with the rule it breaks.
func parseNetID(_ text: String) throws -> NetID {
    do { return try NetID(text) } catch { throw CLIError("\(error)") }
}
