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
    /// The ride's short reference (`K7M-3QX`; events written before migration 0020 have none).
    public var ref: String?
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
    /// The van's ETA at the pickup when a reminder fired from the road (nil: from the plan).
    public var reminderETA: Date?
    /// A `late` event's stop (`pickup` or `dropoff`).
    public var lateStop: String?
    /// A `late` event's new expected time at that stop.
    public var lateETA: Date?
    /// A `late` event's end of the promised window.
    public var lateWindowEnd: Date?
    /// A road event's tap time (`road.at`): when the driver tapped, e.g. the no-show.
    public var roadAt: Date?
    /// A road event's tap (`road.action`): `arrived`, `boarded`, `no_show`, `dropped_off`.
    public var roadAction: String?
    /// A road event's stop (`road.stop`): `pickup` or `dropoff`.
    public var roadStop: String?
    /// A no-show policy event's letter (`standing.message`): the notice, the appeal's receipt, the decision.
    public var standingMessage: String?

    /// Reads the trigger's payload JSON (version 1, docs/events.md); what is missing stays nil.
    public init(payload: String) {
        guard let decoded = try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)) else { return }
        func date(_ text: String?) -> Date? { text.flatMap(PGTimestamp.parse) }
        ref = decoded.ride?.ref
        pickupAt = date(decoded.ride?.pickupAt)
        previousPickupAt = date(decoded.previous?.pickupAt)
        remindedAt = date(decoded.ride?.remindedAt)
        pickupShort = decoded.pickupShort
        dropoffShort = decoded.dropoffShort
        reason = decoded.ride?.reason
        van = decoded.van
        reminderETA = date(decoded.ride?.reminderETA)
        lateStop = decoded.late?.stop
        lateETA = date(decoded.late?.eta)
        lateWindowEnd = date(decoded.late?.windowEnd)
        roadAt = date(decoded.road?.at)
        roadAction = decoded.road?.action
        roadStop = decoded.road?.stop
        standingMessage = decoded.standing?.message
    }

    /// The part of the payload messages read.
    private struct Payload: Decodable {
        struct Ride: Decodable {
            let ref: String?
            let pickupAt: String?
            let remindedAt: String?
            let reason: String?
            let reminderETA: String?
            enum CodingKeys: String, CodingKey { case ref, pickupAt = "pickup_at", remindedAt = "reminded_at", reason, reminderETA = "reminder_eta" }
        }
        struct Previous: Decodable {
            let pickupAt: String?
            enum CodingKeys: String, CodingKey { case pickupAt = "pickup_at" }
        }
        let ride: Ride?
        let previous: Previous?
        let pickupShort: String?
        let dropoffShort: String?
        let van: String?
        struct Late: Decodable {
            let stop: String?
            let eta: String?
            let windowEnd: String?
            enum CodingKeys: String, CodingKey { case stop, eta, windowEnd = "window_end" }
        }
        let late: Late?
        struct Road: Decodable {
            let at: String?
            let action: String?
            let stop: String?
        }
        let road: Road?
        struct Standing: Decodable {
            let message: String?
        }
        let standing: Standing?
        enum CodingKeys: String, CodingKey {
            case ride, previous, pickupShort = "pickup_short", dropoffShort = "dropoff_short", van, late, road, standing
        }
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
            try conn.query("SELECT \(RideEvent.columns) FROM ride_events e WHERE e.id > \(after) ORDER BY e.id LIMIT \(limit)").map(
                RideEvent.init(row:))
        }
    }

    /// The highest event id so far (0 when none).
    public func latestID() async throws -> Int64 {
        try await pool.withConnection { conn in
            try conn.query("SELECT coalesce(max(id), 0) AS id FROM ride_events").first!.decode(Int64.self, "id")
        }
    }
}
