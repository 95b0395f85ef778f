import Foundation
import VanDomain
import VanPostgres

/// Accounts for the people who run the service (drivers and dispatchers): made by a dispatcher
/// with a temporary password, never on the riders' whitelist, audited as `<role>.add` and
/// `<role>.disable`. ``DriverAdministration`` and ``DispatcherAdministration`` add what their
/// role needs on top.
struct StaffAccounts: Sendable {
    let riders: RiderAdministration
    let role: AccountRole

    /// Creates the account with a temporary password (shown once).
    /// - Throws: ``AccountError/riderExists(_:)`` when the net ID already has an account.
    func add(_ netID: NetID, name: String, phone: PhoneNumber?, actor: String) async throws -> Invitation {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count) else {
            throw AccountError.invalid([ValidationError(field: "--name", reason: "must be 1 to 100 characters")])
        }
        try ValidationError.checkNoNul(name, field: "--name")
        let password = TemporaryPassword.generate()
        let hash = try await riders.hasher.hash(password)
        let now = riders.clock.now
        let expiresAt = now.addingTimeInterval(riders.settings.temporaryPasswordLifetime)
        try await riders.pool.withTransaction { connection in
            let created = try RiderStore(connection).insert(
                netID: netID, name: name, email: nil, phone: phone, temporaryPasswordHash: hash, expiresAt: expiresAt, now: now, role: role
            )
            guard created else { throw AccountError.riderExists(netID) }
            try AuditLog.record(
                connection, actor: actor, action: "\(role.rawValue).add", subject: netID.rawValue,
                details: ["temporary_password_expires_at": PGTimestamp.format(expiresAt)])
        }
        return Invitation(netID: netID, temporaryPassword: password, expiresAt: expiresAt)
    }

    /// Every account of the role, by net ID.
    func list(_ connection: PGConnection) throws -> [Rider] {
        try RiderStore(connection).all(role)
    }

    /// Disables the account in one transaction: its sessions end at once, then `also` runs (a
    /// driver's shift ends) and its details join the audit record.
    /// - Throws: ``AccountError/noSuchRider(_:)`` when `netID` is not an account of the role.
    func disable<T: Sendable>(
        _ netID: NetID, actor: String, also: @escaping @Sendable (PGConnection, Date) throws -> (T, [String: String])
    ) async throws -> T {
        let now = riders.clock.now
        let role = role
        return try await riders.pool.withTransaction { connection in
            let store = RiderStore(connection)
            guard try store.rider(netID)?.role == role, try store.setDisabled(netID, true) else { throw AccountError.noSuchRider(netID) }
            let revoked = try SessionStore(connection).revokeAll(netID)
            let (result, details) = try also(connection, now)
            try AuditLog.record(
                connection, actor: actor, action: "\(role.rawValue).disable", subject: netID.rawValue,
                details: details.merging(["sessions_revoked": String(revoked)]) { mine, _ in mine })
            return result
        }
    }
}
