import Foundation
import VanDomain
import VanPostgres

/// The dispatcher's driver commands: driver accounts sign in on the same page as riders, with
/// a temporary password they change first, and run a van's stops. Each command is audited
/// with `actor`. Drivers are not on the riders' whitelist.
public struct DriverAdministration: Sendable {
    let riders: RiderAdministration

    /// Driver commands over the rider administration's pool, hasher, settings and clock.
    public init(riders: RiderAdministration) { self.riders = riders }

    /// A driver account as the dispatcher lists it.
    public struct Summary: Sendable, Equatable {
        /// The account.
        public let account: Rider
        /// Her open shift, if any.
        public let shift: Shift?
    }

    /// Creates a driver account with a temporary password (shown once).
    /// - Throws: ``AccountError/riderExists(_:)`` when the net ID already has an account.
    public func add(_ netID: NetID, name: String, phone: PhoneNumber? = nil, actor: String) async throws -> Invitation {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(name.count) else { throw AccountError.invalid([ValidationError(field: "--name", reason: "must be 1 to 100 characters")]) }
        try ValidationError.checkNoNul(name, field: "--name")
        let password = TemporaryPassword.generate()
        let hash = try await riders.hasher.hash(password)
        let now = riders.clock.now
        let expiresAt = now.addingTimeInterval(riders.settings.temporaryPasswordLifetime)
        try await riders.pool.withTransaction { connection in
            let created = try RiderStore(connection).insert(
                netID: netID, name: name, email: nil, phone: phone, temporaryPasswordHash: hash, expiresAt: expiresAt, now: now, role: .driver
            )
            guard created else { throw AccountError.riderExists(netID) }
            try AuditLog.record(connection, actor: actor, action: "driver.add", subject: netID.rawValue,
                                details: ["temporary_password_expires_at": PGTimestamp.format(expiresAt)])
        }
        return Invitation(netID: netID, temporaryPassword: password, expiresAt: expiresAt)
    }

    /// Every driver account, by net ID, with her open shift.
    public func list() async throws -> [Summary] {
        try await riders.pool.withConnection { connection in
            let shifts = Dictionary(uniqueKeysWithValues: try ShiftStore(connection).allOpen().map { ($0.driverNetID, $0) })
            return try RiderStore(connection).all(.driver).map { Summary(account: $0, shift: shifts[$0.netID]) }
        }
    }

    /// Disables a driver account: her sessions end at once and her open shift ends. Returns the
    /// ended shift, if there was one.
    /// - Throws: ``AccountError/noSuchRider(_:)`` when `netID` is not a driver account.
    @discardableResult
    public func disable(_ netID: NetID, actor: String) async throws -> Shift? {
        let now = riders.clock.now
        return try await riders.pool.withTransaction { connection in
            let store = RiderStore(connection)
            guard try store.rider(netID)?.role == .driver, try store.setDisabled(netID, true) else { throw AccountError.noSuchRider(netID) }
            let revoked = try SessionStore(connection).revokeAll(netID)
            let shifts = ShiftStore(connection)
            var ended: Shift?
            if let open = try shifts.open(driver: netID), try shifts.end(id: open.id, by: actor, now: now) { ended = try shifts.shift(id: open.id) }
            try AuditLog.record(connection, actor: actor, action: "driver.disable", subject: netID.rawValue,
                                details: ["sessions_revoked": String(revoked), "shift_ended": ended.map { String($0.id) } ?? "none"])
            return ended
        }
    }
}
