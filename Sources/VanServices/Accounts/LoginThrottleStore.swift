import Foundation
import VanDomain
import VanPostgres

/// The address a request came from, as sign-in throttling counts it: the peer's IP address,
/// or the client named by `X-Forwarded-For` when the peer is a trusted proxy (vand decides).
public struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address as text, e.g. `192.0.2.7` or `2001:db8::7`; `unknown` when there is none.
    public let rawValue: String

    /// Wraps an address (empty text counts as `unknown`).
    public init(_ rawValue: String) { self.rawValue = rawValue.isEmpty ? "unknown" : rawValue }

    /// No peer address (in-process tests).
    public static let unknown = ClientAddress("unknown")

    public var description: String { rawValue }
}

/// The one place that knows `login_throttle` (migration 0021).
///
/// Failures are counted per (net ID as typed, client address) and per client address over
/// every net ID, never per net ID alone: a guesser elsewhere blocks only their own address,
/// and the rider, from theirs, still signs in. Net IDs count as typed, whether or not an
/// account exists, so throttling does not reveal which net IDs exist. Each key is one row
/// changed by an upsert, so concurrent failures serialise on it and none is lost.
public struct LoginThrottleStore {
    let connection: PGConnection

    /// Uses `connection`.
    public init(_ connection: PGConnection) { self.connection = connection }

    /// The net ID column of the per-address key: no net ID is empty.
    static let everyNetID = ""

    /// Until when sign-ins for `netID` from `address` are blocked (the later of the two
    /// keys), or nil when neither is blocked at `now`.
    public func blockedUntil(_ netID: NetID, from address: ClientAddress, now: Date) throws -> Date? {
        try connection.query(
            """
            SELECT max(blocked_until) AS blocked_until FROM login_throttle
            WHERE address = \(address.rawValue) AND net_id IN (\(netID.rawValue), \(Self.everyNetID)) AND blocked_until > \(now)
            """
        ).first?.decode(Date?.self, "blocked_until")
    }

    /// Counts a failed sign-in against both keys and blocks each that passed its free
    /// failures. Returns until when this net ID from this address is now blocked, or nil.
    public func recordFailure(_ netID: NetID, from address: ClientAddress, now: Date, policy: LoginThrottlePolicy) throws -> Date? {
        let account = try count(netID.rawValue, address, now: now, limit: policy.perAccountAndAddress)
        let anyAccount = try count(Self.everyNetID, address, now: now, limit: policy.perAddress)
        return [account, anyAccount].compactMap { $0 }.max()
    }

    /// One key: the upsert takes the row lock, so the count read back is this failure's.
    private func count(_ netID: String, _ address: ClientAddress, now: Date, limit: LoginThrottlePolicy.Limit) throws -> Date? {
        let forgetBefore = now.addingTimeInterval(-limit.forgetAfter)
        let failures = try connection.query(
            """
            INSERT INTO login_throttle AS t (net_id, address, failures, last_failed_at)
            VALUES (\(netID), \(address.rawValue), 1, \(now))
            ON CONFLICT (net_id, address) DO UPDATE SET
                failures = CASE WHEN t.last_failed_at <= \(forgetBefore) THEN 1 ELSE t.failures + 1 END,
                last_failed_at = \(now)
            RETURNING failures
            """
        ).first!.decode(Int.self, "failures")
        guard let until = limit.blockedUntil(failures: failures, now: now) else { return nil }
        try connection.execute("UPDATE login_throttle SET blocked_until = \(until) WHERE net_id = \(netID) AND address = \(address.rawValue)")
        return until
    }

    /// Forgets the rider's own key after a successful sign-in from `address`. The
    /// per-address count stays: signing in to one's own account must not buy more guesses
    /// at other accounts.
    public func succeeded(_ netID: NetID, from address: ClientAddress) throws {
        try connection.execute("DELETE FROM login_throttle WHERE net_id = \(netID.rawValue) AND address = \(address.rawValue)")
    }

    /// Forgets every key of `netID` (a password reset by the office).
    public func clear(_ netID: NetID) throws {
        try connection.execute("DELETE FROM login_throttle WHERE net_id = \(netID.rawValue)")
    }

    /// Deletes keys quiet for longer than `policy` remembers, so guesses at made-up net IDs
    /// do not pile up.
    public func purge(now: Date, policy: LoginThrottlePolicy) throws {
        let longest = max(policy.perAccountAndAddress.forgetAfter, policy.perAddress.forgetAfter)
        try connection.execute(
            """
            DELETE FROM login_throttle
            WHERE last_failed_at <= \(now.addingTimeInterval(-longest)) AND (blocked_until IS NULL OR blocked_until <= \(now))
            """)
    }
}
