import Foundation
import VanDomain
import VanPostgres

/// Dispatcher accounts: they sign in on the same page as riders, with a temporary password
/// they change first, and keep the day at `/dispatch`. Each command is audited with `actor`.
public struct DispatcherAdministration: Sendable {
    let staff: StaffAccounts

    /// Dispatcher commands over the rider administration's pool, hasher, settings and clock.
    public init(riders: RiderAdministration) { staff = StaffAccounts(riders: riders, role: .dispatcher) }

    /// Creates a dispatcher account with a temporary password (shown once).
    /// - Throws: ``AccountError/riderExists(_:)`` when the net ID already has an account.
    public func add(_ netID: NetID, name: String, phone: PhoneNumber? = nil, actor: String) async throws -> Invitation {
        try await staff.add(netID, name: name, phone: phone, actor: actor)
    }

    /// Every dispatcher account, by net ID.
    public func list() async throws -> [Rider] {
        try await staff.riders.pool.withConnection { try staff.list($0) }
    }

    /// Disables a dispatcher account: her sessions end at once.
    /// - Throws: ``AccountError/noSuchRider(_:)`` when `netID` is not a dispatcher account.
    public func disable(_ netID: NetID, actor: String) async throws {
        try await staff.disable(netID, actor: actor) { _, _ in ((), [:]) }
    }
}
