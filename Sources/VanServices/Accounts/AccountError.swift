import Foundation
import VanDomain

/// Why an account operation was refused. The HTTP layer and the CLI each turn
/// these into their own answer (problem+json, a one-line message).
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Wrong net ID or password — deliberately not saying which.
    case invalidCredentials
    /// Too many failed attempts; try again at the date.
    case lockedOut(until: Date)
    /// The dispatcher disabled this account.
    case disabled
    /// The temporary password was not used in time; the office must issue a new one.
    case temporaryPasswordExpired
    /// The token is missing, unknown, expired or revoked.
    case notAuthenticated
    /// A temporary-password session tried something other than changing the password.
    case passwordChangeRequired
    /// Not on the whitelist, or the entry expired.
    case notEligible(until: LocalDate?)
    /// No account for this net ID (dispatcher commands only).
    case noSuchRider(NetID)
    /// The net ID already has an account (dispatcher commands only).
    case riderExists(NetID)
    /// The net ID is not on the whitelist (dispatcher commands only).
    case notWhitelisted(NetID)
    /// Input that breaks a rule, per field.
    case invalid([ValidationError])
    /// The account's role (first) may not use what needs another role (second): a driver's
    /// session on the rider routes, a rider's on the driver routes.
    case wrongRole(AccountRole, needs: AccountRole)

    /// A short English reason, free of secrets (safe for logs and the CLI).
    public var description: String {
        switch self {
        case .invalidCredentials: "wrong net ID or password"
        case .lockedOut(let until): "too many failed logins; locked until \(until)"
        case .disabled: "the account is disabled"
        case .temporaryPasswordExpired: "the temporary password has expired"
        case .notAuthenticated: "not logged in"
        case .passwordChangeRequired: "the temporary password must be changed first"
        case .notEligible: "not on the whitelist"
        case .noSuchRider(let netID): "\(netID) has no rider account"
        case .riderExists(let netID): "\(netID) already has a rider account"
        case .notWhitelisted(let netID): "\(netID) is not on the whitelist"
        case .invalid(let errors): errors.map(\.description).joined(separator: "; ")
        case .wrongRole(let role, let needs): "this is \(role.possessive) account; this needs \(needs.possessive)"
        }
    }
}
