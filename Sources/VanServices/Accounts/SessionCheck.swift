import Foundation
import VanPostgres

/// A bearer token about to be checked: its digest, the time of the check and how long an
/// idle session lives. ``AccountService/sessionCheck(token:)`` makes one; ``SessionStore``
/// runs it (alone, or as the first part of a statement that also reads, so a read costs
/// one round trip: ``RiderRides/list(_:scope:limit:after:)``).
public struct SessionCheck: Sendable {
    /// SHA-256 of the token.
    public let digest: Data
    /// When the check happens: sessions that ended by then are refused, and a touched one slides from here.
    public let now: Date
    /// How long a session lives after its last use.
    public let idleTimeout: TimeInterval

    /// A check of the session keyed by `digest` at `now`.
    public init(digest: Data, now: Date, idleTimeout: TimeInterval) {
        self.digest = digest
        self.now = now
        self.idleTimeout = idleTimeout
    }
}
