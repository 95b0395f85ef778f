import Crypto
import Foundation
import VanDomain
import VanPostgres

/// A rider's `Idempotency-Key` for one request: a retry with the same key and body
/// gets the first answer back and books nothing twice.
public struct IdempotencyKey: Sendable, Hashable {
    /// The rider who sent it (keys are per rider).
    public let netID: NetID
    /// The header value.
    public let key: String
    /// SHA-256 of the request body, so a reused key with a different body is caught.
    public let requestHash: Data

    /// A key for `body` sent by `netID`.
    public init(netID: NetID, key: String, body: Data) {
        self.netID = netID
        self.key = key
        self.requestHash = Data(SHA256.hash(data: body))
    }
}

/// A stored answer: HTTP status and body.
public struct StoredResponse: Sendable, Hashable {
    /// The HTTP status of the first answer.
    public let status: Int
    /// Its body.
    public let body: String

    /// Creates one.
    public init(status: Int, body: String) {
        self.status = status
        self.body = body
    }
}

/// A key was reused for a different request.
public struct IdempotencyKeyReused: Error, CustomStringConvertible, Sendable {
    public var description: String { "this Idempotency-Key was already used for a different request; send a new key" }
}

enum IdempotencyStore {
    /// Claims `key` inside the caller's transaction. Returns the stored answer when the key
    /// was used before (a concurrent first use makes this wait until it commits).
    static func claim(_ key: IdempotencyKey, _ conn: PGConnection) throws -> StoredResponse? {
        let inserted = try conn.execute("""
            INSERT INTO idempotency_keys (net_id, key, request_sha256, status, body)
            VALUES (\(key.netID.rawValue), \(key.key), \(key.requestHash), 0, '')
            ON CONFLICT (net_id, key) DO NOTHING
            """)
        if inserted == 1 { return nil }
        let row = try conn.query("""
            SELECT request_sha256, status, body FROM idempotency_keys WHERE net_id = \(key.netID.rawValue) AND key = \(key.key)
            """).first!
        guard try row.decode(Data.self, at: 0) == key.requestHash else { throw IdempotencyKeyReused() }
        return StoredResponse(status: try row.decode(at: 1), body: try row.decode(at: 2))
    }

    /// Records the answer for a claimed key, in the same transaction as the work.
    static func store(_ key: IdempotencyKey, _ response: StoredResponse, _ conn: PGConnection) throws {
        try conn.execute("""
            UPDATE idempotency_keys SET status = \(response.status), body = \(response.body)
            WHERE net_id = \(key.netID.rawValue) AND key = \(key.key)
            """)
    }
}
