import Foundation
import VanPostgres

/// One row of `ride_events`: what happened to a ride, written by the database trigger.
public struct RideEvent: Sendable, Hashable {
    /// Increasing id (the order events were written in); the webhook's `X-Vand-Event-Id`.
    public let id: Int64
    /// The ride.
    public let rideID: UUID
    /// The rider the ride belongs to.
    public let netID: String?
    /// What happened, as the trigger named it (see ``RideEventKind``).
    public let kind: String
    /// When it was written (database time).
    public let createdAt: Date
    /// The trigger's JSON: `ride` (the row), `previous`, `pickup_place`, `pickup_short`, `van`, `actor`, ….
    public let payload: String

    /// The kind as an enum, when it is one this build knows.
    public var knownKind: RideEventKind? { RideEventKind(rawValue: kind) }

    /// The columns ``init(row:)`` reads, from `ride_events e`.
    static let columns: SQLQuery = "e.id, e.ride_id, e.net_id, e.kind, e.created_at, e.payload::text AS payload"

    /// Reads a row selected with ``columns``.
    init(row: PGRow) throws {
        id = try row.decode(Int64.self, "id")
        rideID = try row.decode(UUID.self, "ride_id")
        netID = try row.decode(String?.self, "net_id")
        kind = try row.decode(String.self, "kind")
        createdAt = try row.decode(Date.self, "created_at")
        payload = try row.decode(String.self, "payload")
    }

    /// The fields of the payload that messages need.
    public var details: RideEventDetails { RideEventDetails(payload: payload) }
}

/// What the rider's messages need from an event payload; missing fields are nil.
public struct RideEventDetails: Sendable, Hashable {
    /// The pickup time now.
    public var pickupAt: Date?
    /// The pickup time before a move.
    public var previousPickupAt: Date?
    /// When the reminder fired.
    public var remindedAt: Date?
    /// A short name of the pickup place ("SCL"), or its address.
    public var pickupShort: String?
    /// A short name of the drop-off place, or its address.
    public var dropoffShort: String?
    /// The dispatcher's reason (rejections, cancellations).
    public var reason: String?
    /// The van's name.
    public var van: String?

    /// Parses the trigger's payload JSON.
    public init(payload: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else { return }
        let ride = object["ride"] as? [String: Any] ?? [:]
        let previous = object["previous"] as? [String: Any] ?? [:]
        func date(_ value: Any?) -> Date? { (value as? String).flatMap(PGTimestamp.parse) }
        pickupAt = date(ride["pickup_at"])
        previousPickupAt = date(previous["pickup_at"])
        remindedAt = date(ride["reminded_at"])
        pickupShort = object["pickup_short"] as? String
        dropoffShort = object["dropoff_short"] as? String
        reason = ride["reason"] as? String
        van = object["van"] as? String
    }
}

/// Reads events (for `vanadmin watch` and tests).
public struct RideEventStore: Sendable {
    let pool: PGPool

    /// Reads from `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// Events with an id above `after`, oldest first, at most `limit`.
    public func events(after: Int64, limit: Int = 500) async throws -> [RideEvent] {
        try await pool.withConnection { conn in
            try conn.query("SELECT \(RideEvent.columns) FROM ride_events e WHERE e.id > \(after) ORDER BY e.id LIMIT \(limit)").map(RideEvent.init(row:))
        }
    }

    /// The highest event id so far (0 when none).
    public func latestID() async throws -> Int64 {
        try await pool.withConnection { conn in
            try conn.query("SELECT coalesce(max(id), 0) FROM ride_events").first!.decode(Int64.self, at: 0)
        }
    }
}
