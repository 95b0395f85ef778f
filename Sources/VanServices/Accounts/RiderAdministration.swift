import Foundation
import VanDomain
import VanPostgres

/// A temporary password just issued: shown once to the dispatcher, never stored.
public struct Invitation: Sendable, Equatable {
    /// Whose.
    public let netID: NetID
    /// The password to hand over.
    public let temporaryPassword: String
    /// When it stops working.
    public let expiresAt: Date
}

extension Invitation: CustomStringConvertible {
    /// Never shows the password, so a stray log line cannot leak it.
    public var description: String { "Invitation(\(netID), expires \(expiresAt))" }
}

/// A rider account as listed for the dispatcher.
public struct RiderSummary: Sendable, Equatable {
    /// The account.
    public let rider: Rider
    /// Whether they may book today.
    public let eligibility: Eligibility
    /// Sessions not yet expired.
    public let liveSessions: Int
}

/// The dispatcher's rider commands. Each one is recorded in the audit log with `actor`.
public struct RiderAdministration: Sendable {
    /// Where accounts live.
    public let pool: PGPool
    /// Hashes temporary passwords.
    public let hasher: PasswordHasher
    /// Temporary password lifetime.
    public let settings: AccountSettings
    /// The current time.
    public let clock: any TimeSource
    /// For "today" in whitelist checks.
    public let timeZone: TimeZone

    /// Creates the service.
    public init(pool: PGPool, hasher: PasswordHasher, settings: AccountSettings, clock: any TimeSource, timeZone: TimeZone) {
        self.pool = pool
        self.hasher = hasher
        self.settings = settings
        self.clock = clock
        self.timeZone = timeZone
    }

    /// Creates an account with a temporary password. Name and e-mail default to the whitelist entry's.
    /// - Throws: ``AccountError/riderExists(_:)`` when the net ID already has an account.
    public func invite(_ netID: NetID, name: String? = nil, email: EmailAddress? = nil, actor: String) async throws -> Invitation {
        let password = TemporaryPassword.generate()
        let hash = try await hasher.hash(password)
        let now = clock.now
        let expiresAt = now.addingTimeInterval(settings.temporaryPasswordLifetime)
        try await pool.withTransaction { connection in
            let entry = try WhitelistStore(connection).entry(netID)
            let created = try RiderStore(connection).insert(
                netID: netID, name: name ?? entry?.name, email: email ?? entry?.email,
                temporaryPasswordHash: hash, expiresAt: expiresAt, now: now
            )
            guard created else { throw AccountError.riderExists(netID) }
            try AuditLog.record(
                connection, actor: actor, action: "rider.invite", subject: netID.rawValue,
                details: ["temporary_password_expires_at": PGTimestamp.format(expiresAt)])
        }
        return Invitation(netID: netID, temporaryPassword: password, expiresAt: expiresAt)
    }

    /// Issues a new temporary password, ends every session and lifts any lockout.
    public func resetPassword(_ netID: NetID, actor: String) async throws -> Invitation {
        let password = TemporaryPassword.generate()
        let hash = try await hasher.hash(password)
        let now = clock.now
        let expiresAt = now.addingTimeInterval(settings.temporaryPasswordLifetime)
        try await pool.withTransaction { connection in
            guard try RiderStore(connection).setTemporaryPassword(netID, hash: hash, expiresAt: expiresAt) else {
                throw AccountError.noSuchRider(netID)
            }
            let revoked = try SessionStore(connection).revokeAll(netID)
            try LoginThrottleStore(connection).clear(netID)
            try AuditLog.record(
                connection, actor: actor, action: "rider.reset_password", subject: netID.rawValue,
                details: ["temporary_password_expires_at": PGTimestamp.format(expiresAt), "sessions_revoked": String(revoked)])
        }
        return Invitation(netID: netID, temporaryPassword: password, expiresAt: expiresAt)
    }

    /// Disables the account and ends its sessions at once; returns how many ended.
    @discardableResult
    public func disable(_ netID: NetID, reason: String? = nil, actor: String) async throws -> Int {
        try await pool.withTransaction { connection in
            guard try RiderStore(connection).setDisabled(netID, true) else { throw AccountError.noSuchRider(netID) }
            let revoked = try SessionStore(connection).revokeAll(netID)
            var details = ["sessions_revoked": String(revoked)]
            if let reason { details["reason"] = reason }
            try AuditLog.record(connection, actor: actor, action: "rider.disable", subject: netID.rawValue, details: details)
            return revoked
        }
    }

    /// Lets a disabled rider log in again.
    public func enable(_ netID: NetID, actor: String) async throws {
        try await pool.withTransaction { connection in
            guard try RiderStore(connection).setDisabled(netID, false) else { throw AccountError.noSuchRider(netID) }
            try AuditLog.record(connection, actor: actor, action: "rider.enable", subject: netID.rawValue)
        }
    }

    /// Every account with its whitelist status and live sessions.
    public func list() async throws -> [RiderSummary] {
        let now = clock.now
        let today = LocalDate(containing: now, in: timeZone)
        return try await pool.withConnection { connection in
            let entries = Dictionary(uniqueKeysWithValues: try WhitelistStore(connection).all().map { ($0.netID, $0) })
            let sessions = try SessionStore(connection).liveCounts(now: now)
            return try RiderStore(connection).all().map { rider in
                let entry = entries[rider.netID]
                return RiderSummary(
                    rider: rider,
                    eligibility: Eligibility(isEligible: entry?.isActive(on: today) ?? false, until: entry?.validUntil),
                    liveSessions: sessions[rider.netID] ?? 0
                )
            }
        }
    }
}
