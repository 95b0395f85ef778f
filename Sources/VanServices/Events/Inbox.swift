import Foundation
import VanPostgres

/// One message in a rider's inbox.
public struct InboxNotification: Sendable, Hashable, Codable {
    /// Increasing id: the cursor for `?after=` and the SSE event id.
    public let id: Int64
    /// The event kind it came from (`approved`, `reminder`, …).
    public let kind: String
    /// The ride it is about.
    public let rideID: UUID?
    /// What the rider reads.
    public let message: String
    /// When it was written.
    public let createdAt: Date
}

/// A rider's inbox: every query is scoped to the rider.
public struct Inbox: Sendable {
    let pool: PGPool

    /// The inbox on `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// `netID`'s notifications with an id above `after`, oldest first, at most `limit`.
    public func list(_ netID: String, after: Int64 = 0, limit: Int = 50) async throws -> [InboxNotification] {
        try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT id, kind, ride_id, message, created_at FROM notifications
                WHERE net_id = \(netID) AND id > \(after) ORDER BY id LIMIT \(limit)
                """
            ).map { row in
                InboxNotification(
                    id: try row.decode(Int64.self, "id"), kind: try row.decode(String.self, "kind"), rideID: try row.decode(UUID?.self, "ride_id"),
                    message: try row.decode(String.self, "message"), createdAt: try row.decode(Date.self, "created_at"))
            }
        }
    }
}
