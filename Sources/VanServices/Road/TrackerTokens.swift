import Foundation
import VanDomain
import VanPostgres

/// Tokens of vehicle trackers (AVL units): one per van, only its SHA-256 kept
/// (`van_tracker_tokens`, sql/0028). A tracker sends it as a bearer token to post its van's positions.
public struct TrackerTokens: Sendable {
    let pool: PGPool
    let clock: any TimeSource

    /// Tokens over `pool`, timed by `clock`.
    public init(pool: PGPool, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// A new token for the van named `vanName`, replacing its old one (which stops working at
    /// once); audited as `actor`. The raw token is returned once and never stored.
    /// - Throws: ``RoadError/unknownVan(_:)``.
    public func issue(vanNamed vanName: String, actor: String) async throws -> (van: Van, token: SessionToken) {
        let token = SessionToken.generate()
        let digest = token.digest
        let now = clock.now
        let van = try await pool.withTransaction { conn -> Van in
            guard let van = try VanStore.list(conn, includeRetired: false).first(where: { $0.name == vanName }) else {
                throw RoadError.unknownVan(vanName)
            }
            try conn.execute(
                """
                INSERT INTO van_tracker_tokens (van_id, token_sha256, created_at, created_by) VALUES (\(van.id), \(digest), \(now), \(actor))
                ON CONFLICT (van_id) DO UPDATE SET token_sha256 = EXCLUDED.token_sha256, created_at = EXCLUDED.created_at,
                    created_by = EXCLUDED.created_by
                """)
            try AuditLog.record(conn, actor: actor, action: "van.tracker_token", subject: van.name)
            return van
        }
        return (van, token)
    }

    /// The van whose tracker token `text` is, or nil when it is none.
    public func van(forToken text: String) async throws -> Int64? {
        guard let token = SessionToken(text) else { return nil }
        let digest = token.digest
        return try await pool.withConnection { conn in
            try conn.query("SELECT van_id FROM van_tracker_tokens WHERE token_sha256 = \(digest)").first?.decode(Int64.self, "van_id")
        }
    }
}
