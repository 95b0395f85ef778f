import Foundation
import VanDomain
import VanPostgres

/// The one place that knows `login_failures` and `login_lockouts`.
///
/// Keyed by the net ID as typed (normalized), whether or not an account exists:
/// if only real accounts could be locked, locking would reveal which net IDs exist.
public struct LoginThrottleStore {
    let connection: PGConnection

    /// Uses `connection`.
    public init(_ connection: PGConnection) { self.connection = connection }

    /// Until when `netID` is locked, or nil when it is not locked at `now`.
    public func lockedUntil(_ netID: NetID, now: Date) throws -> Date? {
        try connection.query("SELECT locked_until FROM login_lockouts WHERE net_id = \(netID) AND locked_until > \(now)")
            .first.map { try $0.decode(Date.self, "locked_until") }
    }

    /// Records a failed attempt and, when the policy says so, locks the net ID.
    /// Returns the end of the lock it set, or nil. Run it in a transaction.
    public func recordFailure(_ netID: NetID, now: Date, policy: LockoutPolicy) throws -> Date? {
        // Serialize concurrent failures for one net ID so none is missed in the count.
        try connection.execute("SELECT pg_advisory_xact_lock(hashtext(\("vand.login." + netID.rawValue)::text))")
        try connection.execute("INSERT INTO login_failures (net_id, failed_at) VALUES (\(netID), \(now))")
        let since = now.addingTimeInterval(-policy.window)
        try connection.execute("DELETE FROM login_failures WHERE net_id = \(netID) AND failed_at <= \(since)")
        let failures = try connection.query("SELECT count(*) AS n FROM login_failures WHERE net_id = \(netID)")
            .first.map { try $0.decode(Int.self, "n") } ?? 0
        guard let until = policy.lockedUntil(failures: failures, now: now) else { return nil }
        try connection.execute("""
            INSERT INTO login_lockouts (net_id, locked_until) VALUES (\(netID), \(until))
            ON CONFLICT (net_id) DO UPDATE SET locked_until = EXCLUDED.locked_until
            """)
        // The lock replaces the count: after it ends the rider gets a fresh five tries.
        try connection.execute("DELETE FROM login_failures WHERE net_id = \(netID)")
        return until
    }

    /// Forgets failures and any lock (after a successful login or a password reset).
    public func clear(_ netID: NetID) throws {
        try connection.execute("DELETE FROM login_failures WHERE net_id = \(netID)")
        try connection.execute("DELETE FROM login_lockouts WHERE net_id = \(netID)")
    }

    /// Deletes failures and locks that no longer matter, for every net ID, so
    /// guesses at made-up net IDs do not pile up.
    public func purge(now: Date, policy: LockoutPolicy) throws {
        try connection.execute("DELETE FROM login_failures WHERE failed_at <= \(now.addingTimeInterval(-policy.window))")
        try connection.execute("DELETE FROM login_lockouts WHERE locked_until <= \(now)")
    }
}
