import Foundation
import VanPostgres

/// A webhook delivery this loop has claimed (leased) and must now send.
public struct ClaimedWebhook: Sendable {
    /// The event id (the receiver deduplicates on it).
    public let eventID: Int64
    /// The ride, to keep one ride's events in order.
    public let rideID: UUID
    /// Attempts before this one.
    public let attempts: Int
    /// The JSON body: the event's id, kind, ride id, rider, time, and the trigger's payload.
    public let body: String
}

/// One parked or retrying webhook delivery, for `vanadmin events failed`.
public struct FailedDelivery: Sendable, Hashable, Codable {
    /// The event.
    public let eventID: Int64
    /// Its kind.
    public let kind: String
    /// The ride.
    public let rideID: UUID
    /// The ride's reference, from the event's payload (nil for events written before it had one).
    public let rideRef: String?
    /// Attempts so far.
    public let attempts: Int
    /// When it was parked; nil while it is still being retried.
    public let parkedAt: Date?
    /// The next retry (while not parked).
    public let nextAttemptAt: Date?
    /// The last failure.
    public let lastError: String?
}

/// The SQL of the `deliveries` table: claims with `FOR UPDATE SKIP LOCKED`, leases,
/// outcomes, parking and replay.
public struct DeliveryQueue: Sendable {
    let pool: PGPool

    /// The queue on `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// Claims up to `limit` due webhook deliveries for `worker` until `now + lease`.
    /// A delivery whose lease ran out (its loop died) is due again.
    public func claimWebhooks(worker: String, now: Date, lease: TimeInterval, limit: Int) async throws -> [ClaimedWebhook] {
        let until = now.addingTimeInterval(lease)
        return try await pool.withConnection { conn in
            try conn.query(
                """
                WITH picked AS (
                    SELECT event_id FROM deliveries
                    WHERE sink = 'webhook' AND delivered_at IS NULL AND parked_at IS NULL
                      AND next_attempt_at <= \(now) AND (claimed_until IS NULL OR claimed_until <= \(now))
                    ORDER BY event_id LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED)
                UPDATE deliveries d SET claimed_by = \(worker), claimed_until = \(until)
                FROM picked, ride_events e
                WHERE d.event_id = picked.event_id AND d.sink = 'webhook' AND e.id = d.event_id
                RETURNING d.event_id, e.ride_id, d.attempts,
                    (jsonb_build_object('id', e.id, 'kind', e.kind, 'ride_id', e.ride_id, 'net_id', e.net_id,
                                        'occurred_at', e.created_at) || e.payload)::text AS body
                """
            ).map { row in
                ClaimedWebhook(
                    eventID: try row.decode(Int64.self, "event_id"), rideID: try row.decode(UUID.self, "ride_id"),
                    attempts: try row.decode(Int.self, "attempts"), body: try row.decode(String.self, "body"))
            }.sorted { $0.eventID < $1.eventID }
        }
    }

    /// Records a delivered webhook.
    public func delivered(_ eventID: Int64, now: Date) async throws {
        try await pool.withConnection { conn in
            try conn.execute(
                """
                UPDATE deliveries SET delivered_at = \(now), attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL, last_error = NULL
                WHERE event_id = \(eventID) AND sink = 'webhook' AND delivered_at IS NULL
                """)
        }
    }

    /// Records a failed attempt: retry at `retryAt`, or park it when `park`.
    /// Only while `worker` still holds the claim (a takeover's outcome wins).
    public func failed(_ eventID: Int64, worker: String, error: String, now: Date, retryAt: Date, park: Bool) async throws {
        let parkedAt: Date? = park ? now : nil
        try await pool.withConnection { conn in
            try conn.execute(
                """
                UPDATE deliveries SET attempts = attempts + 1, last_error = \(String(error.prefix(500))),
                       next_attempt_at = \(retryAt), parked_at = \(parkedAt), claimed_by = NULL, claimed_until = NULL
                WHERE event_id = \(eventID) AND sink = 'webhook' AND delivered_at IS NULL AND claimed_by = \(worker)
                """)
        }
    }

    /// Marks due webhook deliveries as not sent (no URL configured); returns how many.
    public func skipWebhooks(now: Date) async throws -> Int {
        try await pool.withConnection { conn in
            try conn.execute(
                """
                UPDATE deliveries SET delivered_at = \(now), last_error = 'not sent: VAND_WEBHOOK_URL is not set'
                WHERE (event_id, sink) IN (
                    SELECT event_id, sink FROM deliveries
                    WHERE sink = 'webhook' AND delivered_at IS NULL AND parked_at IS NULL AND next_attempt_at <= \(now)
                      AND (claimed_until IS NULL OR claimed_until <= \(now))
                    FOR UPDATE SKIP LOCKED)
                """)
        }
    }

    /// When the next undelivered, unparked delivery falls due (or its lease runs out); never before `now`.
    public func nextDue(after now: Date) async throws -> Date? {
        try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT min(greatest(next_attempt_at, coalesce(claimed_until, '-infinity'), \(now))) AS due_at
                FROM deliveries WHERE delivered_at IS NULL AND parked_at IS NULL
                """
            ).first?.decode(Date?.self, "due_at")
        }
    }

    /// Parked webhook deliveries (and, with `includeRetrying`, those still being retried), oldest first.
    public func failedWebhooks(includeRetrying: Bool = false) async throws -> [FailedDelivery] {
        try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT d.event_id, e.kind, e.ride_id, d.attempts, d.parked_at,
                       CASE WHEN d.next_attempt_at = '-infinity' THEN NULL ELSE d.next_attempt_at END AS next_attempt_at, d.last_error,
                       e.payload -> 'ride' ->> 'ref' AS ride_ref
                FROM deliveries d JOIN ride_events e ON e.id = d.event_id
                WHERE d.sink = 'webhook' AND d.delivered_at IS NULL
                  AND (d.parked_at IS NOT NULL OR (\(includeRetrying) AND d.attempts > 0))
                ORDER BY d.event_id
                """
            ).map { row in
                FailedDelivery(
                    eventID: try row.decode(Int64.self, "event_id"), kind: try row.decode(String.self, "kind"),
                    rideID: try row.decode(UUID.self, "ride_id"), rideRef: try row.decode(String?.self, "ride_ref"),
                    attempts: try row.decode(Int.self, "attempts"), parkedAt: try row.decode(Date?.self, "parked_at"),
                    nextAttemptAt: try row.decode(Date?.self, "next_attempt_at"), lastError: try row.decode(String?.self, "last_error"))
            }
        }
    }

    /// Un-parks webhook deliveries (one event, or all when `eventID` is nil) with a fresh
    /// budget of attempts, due at once, and wakes the loops. Recorded in the audit log
    /// as `events.replay` by `actor`. Returns how many.
    public func replay(eventID: Int64?, actor: String) async throws -> Int {
        try await pool.withTransaction { conn in
            let count = try conn.execute(
                """
                UPDATE deliveries SET parked_at = NULL, attempts = 0, next_attempt_at = '-infinity',
                       claimed_by = NULL, claimed_until = NULL
                WHERE sink = 'webhook' AND parked_at IS NOT NULL AND delivered_at IS NULL
                  AND (\(eventID) IS NULL OR event_id = \(eventID))
                """)
            if count > 0 {
                try AuditLog.record(
                    conn, actor: actor, action: "events.replay", subject: eventID.map { "event \($0)" } ?? "all parked",
                    details: ["deliveries": "\(count)"])
                try conn.execute("SELECT pg_notify('vand_ride_events', 'replay')")
            }
            return count
        }
    }
}
