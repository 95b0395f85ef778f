import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// How a ride is read from `rides` (with its places' names): one column list, one decoder.
enum RideRecord {
    /// The SELECT list and FROM clause every ride query uses (with the van's name, so a
    /// reader needs no second query for it).
    static let select: SQLQuery = "\(columns) FROM rides r \(joins)"

    /// The column list, over a ride aliased `r` (a table or a CTE) and the ``joins``.
    static let columns: SQLQuery = """
        SELECT r.id, r.net_id, r.kind, r.pickup_address, r.pickup_lat, r.pickup_lon, r.pickup_place_id, pp.name AS pickup_place_name,
               r.dropoff_address, r.dropoff_lat, r.dropoff_lon, r.dropoff_place_id, dp.name AS dropoff_place_name,
               r.requested_at, r.pickup_at, r.estimated_dropoff_at, r.needs_wheelchair, r.companions, r.status,
               r.van_id, r.note, r.reason, r.series_id, r.return_of, r.created_at, r.updated_at, v.name AS van_name,
               r.promise, r.window_start, r.window_end, r.max_ride_seconds, r.ref
        """

    /// The places' and van's names for a ride aliased `r`.
    static let joins: SQLQuery = """
        LEFT JOIN places pp ON pp.id = r.pickup_place_id
        LEFT JOIN places dp ON dp.id = r.dropoff_place_id
        LEFT JOIN vans v ON v.id = r.van_id
        """

    /// One end of a ride (or a series' template) in a row: `<end>_address`, `_lat`, `_lon`,
    /// `_place_id` and `_place_name`, read by name (`end` is `pickup` or `dropoff`).
    static func endpoint(_ end: String, in row: some PGRowReading) throws -> RideEndpoint {
        let lat = try row.decode(Double?.self, end + "_lat"), lon = try row.decode(Double?.self, end + "_lon")
        var coordinate: Coordinate?
        if let lat, let lon { coordinate = try Coordinate(latitude: lat, longitude: lon) }
        return RideEndpoint(
            address: try row.decode(String?.self, end + "_address"), coordinate: coordinate,
            placeID: try row.decode(Int64?.self, end + "_place_id"), placeName: try row.decode(String?.self, end + "_place_name"))
    }

    /// The ride in a row holding ``columns``, read by name (among other columns, before or after:
    /// a query that adds its own reads the same; its own names must not be these).
    static func ride<Row: PGRowReading>(_ row: Row) throws -> Ride {
        func endpoint(_ end: String) throws -> RideEndpoint { try RideRecord.endpoint(end, in: row) }
        guard let kind = RideKind(rawValue: try row.decode(String.self, "kind")),
            let status = RideStatus(rawValue: try row.decode(String.self, "status")),
            let promiseKind = RidePromise.Kind(rawValue: try row.decode(String.self, "promise"))
        else {
            throw PGError(kind: .decoding, message: "ride has an unknown kind, status or promise")
        }
        let promise = RidePromise(
            kind: promiseKind, window: DateInterval(start: try row.decode(Date.self, "window_start"), end: try row.decode(Date.self, "window_end")))
        return Ride(
            id: try row.decode(UUID.self, "id"), ref: try RideRef(validating: try row.decode(String.self, "ref")),
            netID: try NetID(try row.decode(String.self, "net_id")), kind: kind,
            pickup: try endpoint("pickup"), dropoff: try endpoint("dropoff"),
            requestedAt: try row.decode(Date.self, "requested_at"), pickupAt: try row.decode(Date.self, "pickup_at"),
            estimatedDropoffAt: try row.decode(Date.self, "estimated_dropoff_at"),
            promise: promise, maxRideTime: TimeInterval(try row.decode(Int.self, "max_ride_seconds")),
            needsWheelchair: try row.decode(Bool.self, "needs_wheelchair"), companions: try row.decode(Int.self, "companions"), status: status,
            vanID: try row.decode(Int64?.self, "van_id"), vanName: try row.decode(String?.self, "van_name"),
            note: try row.decode(String?.self, "note"), reason: try row.decode(String?.self, "reason"),
            seriesID: try row.decode(UUID?.self, "series_id"), returnOf: try row.decode(UUID?.self, "return_of"),
            createdAt: try row.decode(Date.self, "created_at"),
            updatedAt: try row.decode(Date.self, "updated_at")
        )
    }

    /// The rides of `netID` holding a van (pending or approved) picked up in `span`.
    static func held(by netID: NetID, around span: DateInterval, _ conn: PGConnection) throws -> [Ride] {
        let query: SQLQuery = """
            \(select)
            WHERE r.net_id = \(netID.rawValue) AND ride_holds_van(r.status)
              AND r.pickup_at >= \(span.start) AND r.pickup_at < \(span.end)
            ORDER BY r.pickup_at
            """
        return try conn.query(query.prepared(), results: .binary) { try ride($0) }
    }

    /// The rides holding a van (pending or approved) picked up in `span`, or picked up at most
    /// `longestRide` before it and still aboard at its start: what the scheduler plans a span on.
    /// With `vans`, only those vans' rides (a writer reading again the vans it lost a race on).
    static func booked(_ conn: PGConnection, aboardIn span: DateInterval, longestRide: TimeInterval, vans: [Int64]? = nil) throws -> [BookedRide] {
        // Every booking reads hours of rides: prepared once per connection, and in binary
        // (no text to parse for the ids, times and coordinates: most of a booking's decoding).
        let vanFilter: SQLQuery
        if let vans, vans.count == 1 {
            // One van (a placement settled on its own route): `=` so the generic plan takes
            // rides_van_aboard; with `ANY` it guessed every van's index and dropped the others' rows.
            vanFilter = "van_id = \(vans[0])"
        } else if let vans {
            vanFilter = "van_id = ANY(\("{" + vans.map(String.init).joined(separator: ",") + "}")::bigint[])"
        } else {
            vanFilter = "van_id IS NOT NULL"
        }
        let query: SQLQuery = """
            SELECT id, van_id, pickup_at, estimated_dropoff_at, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon,
                   needs_wheelchair, companions, promise, window_start, window_end, max_ride_seconds, van_pinned_by IS NOT NULL AS van_pinned
            FROM rides
            WHERE ride_holds_van(status) AND \(vanFilter)
              AND pickup_at >= \(span.start.addingTimeInterval(-longestRide)) AND pickup_at < \(span.end)
              AND estimated_dropoff_at > \(span.start)
            """
        return try conn.query(query.prepared(), results: .binary) { row in
            func coordinate(_ end: String) throws -> Coordinate? {
                guard let lat = try row.decode(Double?.self, end + "_lat"), let lon = try row.decode(Double?.self, end + "_lon") else { return nil }
                return try Coordinate(latitude: lat, longitude: lon)
            }
            let promise = RidePromise(
                kind: RidePromise.Kind(rawValue: try row.decode(String.self, "promise")) ?? .pickup,
                window: DateInterval(start: try row.decode(Date.self, "window_start"), end: try row.decode(Date.self, "window_end")))
            var ride = BookedRide(
                id: try row.decode(UUID.self, "id"), vanID: try row.decode(Int64.self, "van_id"), pickupAt: try row.decode(Date.self, "pickup_at"),
                dropoffAt: try row.decode(Date.self, "estimated_dropoff_at"), pickup: try coordinate("pickup"), dropoff: try coordinate("dropoff"),
                wheelchair: try row.decode(Bool.self, "needs_wheelchair"), companions: try row.decode(Int.self, "companions"), promise: promise,
                maxRideTime: TimeInterval(try row.decode(Int.self, "max_ride_seconds")))
            ride.vanPinned = try row.decode(Bool.self, "van_pinned")
            return ride
        }
    }

}
