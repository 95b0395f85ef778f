import Crypto
import Foundation
import VanDomain
import VanPostgres
import VanScheduler

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

/// What a key remembers of the first request that used it.
public struct RememberedBooking: Sendable, Hashable {
    /// Whether anything was booked.
    public enum Outcome: String, Sendable {
        /// The ride, or at least one ride of the series, was booked.
        case booked
        /// Nothing was booked.
        case refused
    }

    /// Booked or refused.
    public let outcome: Outcome
    /// The ride booked, for a single ride.
    public let rideID: UUID?
    /// The series booked, for a standing series.
    public let seriesID: UUID?
    /// Why a single ride was refused (``Infeasibility/code``), or `series` when no occurrence fit.
    public let reason: String?
    /// The first answer's text exactly, once it was recorded (nil while it is being written).
    public let answer: String?

    /// What the outcomes of a fresh booking come to.
    public init(_ outcomes: [BookingOutcome], seriesID: UUID?) {
        var booked: [UUID] = []
        var reason: String?
        for outcome in outcomes {
            switch outcome {
            case .booked(let ride): booked.append(ride.id)
            case .refused, .overlaps: reason = reason ?? outcome.refusalCode
            }
        }
        self.outcome = booked.isEmpty ? .refused : .booked
        self.rideID = seriesID == nil ? booked.first : nil
        self.seriesID = seriesID
        self.reason = booked.isEmpty ? (seriesID == nil ? reason : "series") : nil
        self.answer = nil
    }

    init(outcome: Outcome, rideID: UUID?, seriesID: UUID?, reason: String?, answer: String?) {
        self.outcome = outcome
        self.rideID = rideID
        self.seriesID = seriesID
        self.reason = reason
        self.answer = answer
    }
}

/// What a booking guarded by an idempotency key came to.
public enum IdempotentBooking: Sendable {
    /// The first use of the key: the rides were booked (or refused) now. Record the
    /// answer with ``BookingService/recordAnswer(_:for:)`` once it is rendered.
    case fresh([BookingOutcome])
    /// A retry: what the first request made, and its answer once recorded.
    case replay(RememberedBooking)
}

/// A key was reused for a different request.
public struct IdempotencyKeyReused: Error, CustomStringConvertible, Sendable {
    public var description: String { "this Idempotency-Key was already used for a different request; send a new key" }
}

enum IdempotencyStore {
    /// Claims `key` inside the caller's transaction. Returns what the key remembers when it
    /// was used before (a concurrent first use makes this wait until it commits).
    static func claim(_ key: IdempotencyKey, _ conn: PGConnection) throws -> RememberedBooking? {
        let inserted = try conn.execute(
            """
            INSERT INTO idempotency_keys (net_id, key, request_sha256)
            VALUES (\(key.netID.rawValue), \(key.key), \(key.requestHash))
            ON CONFLICT (net_id, key) DO NOTHING
            """)
        if inserted == 1 { return nil }
        let row = try conn.query(
            """
            SELECT request_sha256, outcome, ride_id, series_id, reason, body
            FROM idempotency_keys WHERE net_id = \(key.netID.rawValue) AND key = \(key.key)
            """
        ).first!
        guard try row.decode(Data.self, "request_sha256") == key.requestHash else { throw IdempotencyKeyReused() }
        let outcome = RememberedBooking.Outcome(rawValue: try row.decode(String?.self, "outcome") ?? "") ?? .refused
        return RememberedBooking(
            outcome: outcome, rideID: try row.decode(UUID?.self, "ride_id"), seriesID: try row.decode(UUID?.self, "series_id"),
            reason: try row.decode(String?.self, "reason"), answer: try row.decode(String?.self, "body"))
    }

    /// Records what a claimed key's request made, in the same transaction as the work.
    static func remember(_ key: IdempotencyKey, _ booking: RememberedBooking, _ conn: PGConnection) throws {
        try conn.execute(
            """
            UPDATE idempotency_keys SET outcome = \(booking.outcome.rawValue), ride_id = \(booking.rideID),
                   series_id = \(booking.seriesID), reason = \(booking.reason)
            WHERE net_id = \(key.netID.rawValue) AND key = \(key.key)
            """)
    }

    /// Records the answer's text once it was rendered (after the booking committed).
    static func recordAnswer(_ key: IdempotencyKey, _ answer: String, _ conn: PGConnection) throws {
        try conn.execute(
            """
            UPDATE idempotency_keys SET body = \(answer)
            WHERE net_id = \(key.netID.rawValue) AND key = \(key.key) AND body IS NULL
            """)
    }
}
