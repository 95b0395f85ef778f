import Foundation
import VanDomain
import VanPostgres

/// The `will_calls` table (sql/0042): the ways back that wait for her call.
enum WillCallStore {
    /// A will-call's columns, its pickup's place name included, for `w` joined to `places wp`.
    private static let select: SQLQuery = """
        SELECT w.ride_id, w.net_id, w.pickup_address, w.pickup_lat, w.pickup_lon, w.pickup_place_id, wp.name AS pickup_place_name,
               w.created_at, w.ready_at, w.ready_by, w.closed_at
        FROM will_calls w LEFT JOIN places wp ON wp.id = w.pickup_place_id
        """

    static func willCall(_ row: some PGRowReading) throws -> WillCall {
        WillCall(
            rideID: try row.decode(UUID.self, "ride_id"), netID: try NetID(try row.decode(String.self, "net_id")),
            pickup: try RideRecord.endpoint("pickup", in: row), createdAt: try row.decode(Date.self, "created_at"),
            readyAt: try row.decode(Date?.self, "ready_at"), readyBy: try row.decode(String?.self, "ready_by"),
            closedAt: try row.decode(Date?.self, "closed_at"))
    }

    /// Records the way back of ride `there` as a will-call, starting at `pickup`.
    static func insert(there: Ride, pickup: RideEndpoint, now: Date, _ conn: PGConnection) throws {
        try conn.execute(
            """
            INSERT INTO will_calls (ride_id, net_id, pickup_address, pickup_lat, pickup_lon, pickup_place_id, created_at)
            VALUES (\(there.id), \(there.netID.rawValue), \(pickup.address), \(pickup.coordinate?.latitude), \(pickup.coordinate?.longitude),
                    \(pickup.placeID), \(now))
            """)
    }

    /// Ride `there`'s will-call, locked for this transaction (two calls at once take turns).
    static func lock(_ there: UUID, _ conn: PGConnection) throws -> WillCall? {
        try conn.query("\(select) WHERE w.ride_id = \(there) FOR UPDATE OF w").first.map(willCall)
    }

    /// The will-calls of `rides` (by the ride there's id), whatever their state.
    static func of(_ rides: [UUID], _ conn: PGConnection) throws -> [UUID: WillCall] {
        guard !rides.isEmpty else { return [:] }
        let ids = "{" + rides.map(\.uuidString).joined(separator: ",") + "}"
        let found = try conn.query("\(select) WHERE w.ride_id = ANY(\(ids)::uuid[])", rows: willCall)
        return Dictionary(found.map { ($0.rideID, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The open will-calls whose ride there is picked up before `before`, oldest ride first, each
    /// with its ride there (at most `limit`). A ride there cancelled alone leaves its will-call open
    /// (she may have got there another way): it is listed, its ride there showing so.
    static func open(before: Date, limit: Int, _ conn: PGConnection) throws -> [(WillCall, Ride)] {
        let rides = try conn.query(
            """
            \(RideRecord.select)
            WHERE r.id IN (SELECT ride_id FROM will_calls WHERE ready_at IS NULL AND closed_at IS NULL)
              AND r.pickup_at < \(before)
            ORDER BY r.pickup_at, r.id
            LIMIT \(limit)
            """, rows: RideRecord.ride)
        let calls = try of(rides.map(\.id), conn)
        return rides.compactMap { ride in calls[ride.id].map { ($0, ride) } }
    }

    /// Marks ride `there`'s will-call as called for: the way back is booked.
    static func markReady(_ there: UUID, at now: Date, by actor: String, _ conn: PGConnection) throws {
        try conn.execute("UPDATE will_calls SET ready_at = \(now), ready_by = \(actor) WHERE ride_id = \(there)")
    }

    /// Closes ride `there`'s will-call if it is open; whether it was.
    @discardableResult
    static func close(_ there: UUID, at now: Date, by actor: String, _ conn: PGConnection) throws -> Bool {
        try conn.query(
            """
            UPDATE will_calls SET closed_at = \(now), closed_by = \(actor)
            WHERE ride_id = \(there) AND ready_at IS NULL AND closed_at IS NULL RETURNING ride_id
            """
        ).count == 1
    }
}
