import Foundation
import VanDomain
import VanPostgres

/// What a rider does with their account: log in and out, change the password,
/// read and edit their profile. Time comes from ``clock`` so tests can move it.
public struct AccountService: Sendable {
    /// Where accounts live.
    public let pool: PGPool
    /// bcrypt, off the cooperative pool.
    public let hasher: PasswordHasher
    /// Lifetimes and lockout rules.
    public let settings: AccountSettings
    /// The current time.
    public let clock: any TimeSource
    /// The service time zone: a whitelist entry lasts through its last day here.
    public let timeZone: TimeZone

    /// Creates the service.
    public init(pool: PGPool, hasher: PasswordHasher, settings: AccountSettings, clock: any TimeSource, timeZone: TimeZone) {
        self.pool = pool
        self.hasher = hasher
        self.settings = settings
        self.clock = clock
        self.timeZone = timeZone
    }

    /// A successful login: the bearer token (shown once) and when it ends if unused.
    public struct Login: Sendable {
        /// The bearer token.
        public let token: SessionToken
        /// When the session ends unless used.
        public let expiresAt: Date
        /// True when the token may only change the password.
        public let mustChangePassword: Bool
    }

    /// Checks a net ID and password from `client` and opens a session.
    ///
    /// An unknown net ID costs the same bcrypt work as a wrong password and gets the same
    /// ``AccountError/invalidCredentials``; both count towards throttling, which is kept per
    /// net ID *and client address* and per client address (``LoginThrottleStore``), so a
    /// guesser elsewhere cannot lock the rider out. Only a correct password learns that the
    /// account is disabled or its temporary password expired. A correct password whose hash was
    /// made at another bcrypt cost than the current one is hashed again at the current cost.
    public func login(netID rawNetID: String, password: String, from client: ClientAddress) async throws -> Login {
        let netID = try Self.parse(netID: rawNetID)
        guard !password.isEmpty else { throw AccountError.invalid([ValidationError(field: "password", reason: "is required")]) }
        let now = clock.now
        let (blockedUntil, credentials) = try await pool.withConnection { connection in
            (try LoginThrottleStore(connection).blockedUntil(netID, from: client, now: now), try RiderStore(connection).credentials(netID))
        }
        if let blockedUntil { throw AccountError.lockedOut(until: blockedUntil) }
        let matches = try await hasher.verify(password, against: credentials?.passwordHash)
        guard matches, let credentials else {
            if let until = try await recordFailure(netID, from: client, now: now) { throw AccountError.lockedOut(until: until) }
            throw AccountError.invalidCredentials
        }
        if credentials.disabled { throw AccountError.disabled }
        var expiresAt = now.addingTimeInterval(settings.sessionIdleTimeout)
        if credentials.mustChangePassword {
            let temporaryEnd = credentials.temporaryPasswordExpiresAt ?? now
            guard temporaryEnd > now else { throw AccountError.temporaryPasswordExpired }
            expiresAt = min(expiresAt, temporaryEnd)
        }
        // A password hashed at an old cost is hashed again at the current one (bcrypt needs the password).
        let rehashed = hasher.needsRehash(credentials.passwordHash) ? try await hasher.hash(password) : nil
        let token = SessionToken.generate()
        try await pool.withTransaction { [expiresAt] connection in
            if let rehashed { _ = try RiderStore(connection).rehash(netID, from: credentials.passwordHash, to: rehashed) }
            try LoginThrottleStore(connection).succeeded(netID, from: client)
            let sessions = SessionStore(connection)
            try sessions.deleteExpired(netID, now: now)
            try sessions.insert(token, netID: netID, now: now, expiresAt: expiresAt)
        }
        return Login(token: token, expiresAt: expiresAt, mustChangePassword: credentials.mustChangePassword)
    }

    /// The session a bearer token belongs to, its idle expiry moved forward.
    /// - Throws: ``AccountError/notAuthenticated`` for a malformed, unknown, expired or revoked token.
    public func authenticate(token text: String) async throws -> AuthenticatedSession {
        try await authenticate(try sessionCheck(token: text))
    }

    /// ``authenticate(token:)`` with the check made already.
    public func authenticate(_ check: SessionCheck) async throws -> AuthenticatedSession {
        guard
            let session = try await pool.withConnection({
                try SessionStore($0).authenticate(digest: check.digest, now: check.now, idleTimeout: check.idleTimeout)
            })
        else {
            throw AccountError.notAuthenticated
        }
        return session
    }

    /// A bearer token's check, to run now, alone (``authenticate(token:)``) or with a read in
    /// the same statement (``RiderRides/list(_:scope:limit:after:)``).
    /// - Throws: ``AccountError/notAuthenticated`` for text that cannot be one of our tokens.
    public func sessionCheck(token text: String) throws(AccountError) -> SessionCheck {
        guard let token = SessionToken(text) else { throw AccountError.notAuthenticated }
        return SessionCheck(digest: token.digest, now: clock.now, idleTimeout: settings.sessionIdleTimeout)
    }

    /// Ends the session (logout).
    public func logout(_ session: AuthenticatedSession) async throws {
        let digest = session.digest
        try await pool.withConnection { try SessionStore($0).revoke(digest: digest) }
    }

    /// Replaces the password after checking the current one; ends every other session of the rider.
    /// A wrong current password from `client` counts towards throttling like a failed sign-in.
    public func changePassword(_ session: AuthenticatedSession, current: String, new: String, from client: ClientAddress) async throws {
        let netID = session.netID
        let now = clock.now
        do {
            try PasswordPolicy.check(new, netID: netID, field: "new")
        } catch {
            throw AccountError.invalid([error])
        }
        let (blockedUntil, credentials) = try await pool.withConnection { connection in
            (try LoginThrottleStore(connection).blockedUntil(netID, from: client, now: now), try RiderStore(connection).credentials(netID))
        }
        if let blockedUntil { throw AccountError.lockedOut(until: blockedUntil) }
        guard let credentials else { throw AccountError.notAuthenticated }
        guard try await hasher.verify(current, against: credentials.passwordHash) else {
            if let until = try await recordFailure(netID, from: client, now: now) { throw AccountError.lockedOut(until: until) }
            throw AccountError.invalid([ValidationError(field: "current", reason: "is not your current password")])
        }
        guard new != current else {
            throw AccountError.invalid([ValidationError(field: "new", reason: "must differ from your current password")])
        }
        let hash = try await hasher.hash(new)
        let keep = session.digest
        let expiresAt = now.addingTimeInterval(settings.sessionIdleTimeout)
        try await pool.withTransaction { connection in
            guard try RiderStore(connection).setPassword(netID, hash: hash) else { throw AccountError.notAuthenticated }
            let sessions = SessionStore(connection)
            try sessions.revokeAll(netID, keeping: keep)
            // This session was capped at the temporary password's end; it is a normal one now.
            try sessions.extend(digest: keep, now: now, expiresAt: expiresAt)
            try LoginThrottleStore(connection).succeeded(netID, from: client)
        }
    }

    /// A rider's own view of their account.
    public struct Profile: Sendable, Equatable {
        /// The account.
        public let rider: Rider
        /// Whether they may book today.
        public let eligibility: Eligibility
    }

    /// The rider's profile and whitelist status.
    public func profile(_ netID: NetID) async throws -> Profile {
        let today = self.today
        let found = try await pool.withConnection { connection -> Profile? in
            guard let rider = try RiderStore(connection).rider(netID) else { return nil }
            return Profile(rider: rider, eligibility: try WhitelistStore(connection).eligibility(netID, today: today))
        }
        guard let found else { throw AccountError.notAuthenticated }
        return found
    }

    /// Changes phone and e-mail. For each: nil leaves it, `.some(nil)` clears it.
    public func updateContact(_ netID: NetID, phone: PhoneNumber??, email: EmailAddress??) async throws -> Profile {
        try await pool.withTransaction { connection in
            let riders = RiderStore(connection)
            guard let rider = try riders.rider(netID) else { throw AccountError.notAuthenticated }
            _ = try riders.setContact(netID, phone: phone ?? rider.phone, email: email ?? rider.email)
        }
        return try await profile(netID)
    }

    /// Today in the service time zone.
    public var today: LocalDate { LocalDate(containing: clock.now, in: timeZone) }

    private func recordFailure(_ netID: NetID, from client: ClientAddress, now: Date) async throws -> Date? {
        let policy = settings.throttle
        let until = try await pool.withTransaction { connection in
            try LoginThrottleStore(connection).recordFailure(netID, from: client, now: now, policy: policy)
        }
        // Housekeeping in its own statement: a failed purge must not turn a login answer into an error.
        _ = try? await pool.withConnection { try LoginThrottleStore($0).purge(now: now, policy: policy) }
        return until
    }

    static func parse(netID raw: String) throws -> NetID {
        do { return try NetID(raw) } catch { throw AccountError.invalid([error]) }
    }
}

extension AccountService.Login: CustomStringConvertible {
    /// Never shows the token.
    public var description: String { "Login(expiresAt: \(expiresAt), mustChangePassword: \(mustChangePassword))" }
}
