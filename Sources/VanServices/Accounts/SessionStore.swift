import Foundation
import VanDomain
import VanPostgres

/// The one place that knows the `sessions` table. Rows are keyed by the token's
/// SHA-256; the raw token is never written.
public struct SessionStore {
    let connection: PGConnection

    /// Uses `connection`.
    public init(_ connection: PGConnection) { self.connection = connection }

    /// Stores a new session for `netID`, ending at `expiresAt` unless used before then.
    public func insert(_ token: SessionToken, netID: NetID, now: Date, expiresAt: Date) throws {
        try connection.execute(
            """
            INSERT INTO sessions (token_sha256, net_id, created_at, expires_at, last_seen_at)
            VALUES (\(token.digest), \(netID), \(now), \(expiresAt), \(now))
            """)
    }

    /// How often a used session's expiry slides and its `last_seen_at` is written: at most
    /// once a minute, so most requests only read (a write and a WAL flush per request would
    /// cost more than the rest of a read). An idle session can therefore end up to a minute
    /// earlier than `idleTimeout` after its last use.
    public static let touchInterval: TimeInterval = 60

    /// Looks the token up and, if it is live and its rider is enabled, slides its
    /// expiry to `now + idleTimeout` (capped by the temporary password's expiry while
    /// the rider still has one) when it was last touched ``touchInterval`` or more ago.
    /// One statement, so a check and its touch cannot race.
    public func authenticate(digest: Data, now: Date, idleTimeout: TimeInterval) throws -> AuthenticatedSession? {
        let check = SessionCheck(digest: digest, now: now, idleTimeout: idleTimeout)
        // Every authenticated request runs this: prepared once per connection.
        let query: SQLQuery = "\(Self.checking(check)) SELECT \(Self.sessionColumns) FROM session s"
        return try connection.query(query.prepared(), results: .binary) { row in try Self.session(row, digest: digest) }.first
    }

    /// The opening of a statement that runs `check` — what ``authenticate(digest:now:idleTimeout:)``
    /// does — and names its outcome `session` (`net_id`, `must_change_password`, `expires_at`,
    /// `last_seen_at`, `role`; no row unless the session is live): `WITH live AS (…), touched AS (…), session AS (…)`.
    /// A statement that goes on to read for the rider checks and reads in one round trip; the
    /// expiry slides exactly as when the check runs alone (the `UPDATE` runs whatever the rest reads).
    public static func checking(_ check: SessionCheck) -> SQLQuery {
        let now = check.now
        let slid = now.addingTimeInterval(check.idleTimeout)
        let stale = now.addingTimeInterval(-touchInterval)
        return """
            WITH live AS (
                SELECT s.token_sha256, s.net_id, s.expires_at, s.last_seen_at, r.must_change_password, r.temp_password_expires_at, r.role
                FROM sessions s JOIN riders r ON r.net_id = s.net_id
                WHERE s.token_sha256 = \(check.digest) AND s.expires_at > \(now) AND NOT r.disabled
                  AND (NOT r.must_change_password OR r.temp_password_expires_at IS NULL OR r.temp_password_expires_at > \(now))
            ), touched AS (
                UPDATE sessions s
                SET last_seen_at = \(now),
                    expires_at = CASE WHEN live.must_change_password THEN LEAST(\(slid), live.temp_password_expires_at) ELSE \(slid) END
                FROM live
                WHERE s.token_sha256 = live.token_sha256 AND live.last_seen_at <= \(stale)
                RETURNING s.expires_at, s.last_seen_at
            ), session AS (
                SELECT live.net_id, live.must_change_password, COALESCE((SELECT expires_at FROM touched), live.expires_at) AS expires_at,
                       COALESCE((SELECT last_seen_at FROM touched), live.last_seen_at) AS last_seen_at, live.role
                FROM live
            )
            """
    }

    /// The select list ``session(_:digest:)`` reads, over `session` (``checking(_:)``) aliased `s`:
    /// its columns named `session_…`, so a statement that reads a ride (``RideRecord``) beside
    /// them shares no name with it.
    public static let sessionColumns: SQLQuery = """
        s.net_id AS session_net_id, s.must_change_password AS session_must_change_password, s.expires_at AS session_expires_at,
        s.last_seen_at AS session_last_seen_at, s.role AS session_role
        """

    /// The session in a row holding ``sessionColumns`` (among other columns, before or after).
    public static func session(_ row: some PGRowReading, digest: Data) throws -> AuthenticatedSession {
        AuthenticatedSession(
            netID: try row.decode(NetID.self, "session_net_id"),
            digest: digest,
            mustChangePassword: try row.decode(Bool.self, "session_must_change_password"),
            expiresAt: try row.decode(Date.self, "session_expires_at"),
            lastSeenAt: try row.decode(Date.self, "session_last_seen_at"),
            role: try AccountRole(rawValue: row.decode(String.self, "session_role")) ?? .rider
        )
    }

    /// Sets a session's end and marks it used (e.g. lifting the temporary-password cap
    /// once the rider chose their own password).
    public func extend(digest: Data, now: Date, expiresAt: Date) throws {
        try connection.execute("UPDATE sessions SET last_seen_at = \(now), expires_at = \(expiresAt) WHERE token_sha256 = \(digest)")
    }

    /// Ends one session; false when it did not exist.
    @discardableResult
    public func revoke(digest: Data) throws -> Bool {
        try connection.execute("DELETE FROM sessions WHERE token_sha256 = \(digest)") == 1
    }

    /// Ends every session of `netID` except `keeping`; returns how many ended.
    @discardableResult
    public func revokeAll(_ netID: NetID, keeping: Data? = nil) throws -> Int {
        if let keeping {
            return try connection.execute("DELETE FROM sessions WHERE net_id = \(netID) AND token_sha256 <> \(keeping)")
        }
        return try connection.execute("DELETE FROM sessions WHERE net_id = \(netID)")
    }

    /// Deletes `netID`'s sessions that have run out (tidying on login).
    public func deleteExpired(_ netID: NetID, now: Date) throws {
        try connection.execute("DELETE FROM sessions WHERE net_id = \(netID) AND expires_at <= \(now)")
    }

    /// `netID`'s sessions a notification stream may stay open on at `now`, by digest with their
    /// end: live, the rider enabled and not made to change the password (what the stream's own
    /// check refuses otherwise). Reads only: nothing slides.
    public func streamable(_ netID: NetID, now: Date) throws -> [Data: Date] {
        var live: [Data: Date] = [:]
        let rows = try connection.query(
            """
            SELECT s.token_sha256, s.expires_at FROM sessions s JOIN riders r ON r.net_id = s.net_id
            WHERE s.net_id = \(netID) AND s.expires_at > \(now) AND NOT r.disabled AND NOT r.must_change_password
            """)
        for row in rows { live[try row.decode(Data.self, "token_sha256")] = try row.decode(Date.self, "expires_at") }
        return live
    }

    /// Live sessions per net ID (for `vanadmin riders list`).
    public func liveCounts(now: Date) throws -> [NetID: Int] {
        var counts: [NetID: Int] = [:]
        for row in try connection.query("SELECT net_id, count(*) AS n FROM sessions WHERE expires_at > \(now) GROUP BY net_id") {
            counts[try row.decode(NetID.self, "net_id")] = try row.decode(Int.self, "n")
        }
        return counts
    }
}

/// A request's verified bearer token: whose it is and what it may do.
public struct AuthenticatedSession: Sendable, Equatable {
    /// The rider.
    public let netID: NetID
    /// SHA-256 of the token (to revoke this very session).
    public let digest: Data
    /// While true the token may only be used to change the password (and to log out).
    public let mustChangePassword: Bool
    /// When the session ends unless used again.
    public let expiresAt: Date
    /// When its expiry last slid: the check slides it again once ``SessionStore/touchInterval`` has passed.
    public let lastSeenAt: Date
    /// What the account is for: each route family admits its own role only.
    public let role: AccountRole

    /// Creates a value (a rider's unless `role` says otherwise).
    public init(netID: NetID, digest: Data, mustChangePassword: Bool, expiresAt: Date, lastSeenAt: Date, role: AccountRole = .rider) {
        self.netID = netID
        self.digest = digest
        self.mustChangePassword = mustChangePassword
        self.expiresAt = expiresAt
        self.lastSeenAt = lastSeenAt
        self.role = role
    }

    /// The session, if its account has `role`.
    /// - Throws: ``AccountError/wrongRole(_:needs:)``.
    public func requiring(_ role: AccountRole) throws(AccountError) -> AuthenticatedSession {
        guard self.role == role else { throw .wrongRole(self.role, needs: role) }
        return self
    }

    /// The session, for anything but changing the password (and logging out): a session signed
    /// in with a temporary password is refused until the rider chose her own.
    public func requiringOwnPassword() throws(AccountError) -> AuthenticatedSession {
        if mustChangePassword { throw .passwordChangeRequired }
        return self
    }
}
