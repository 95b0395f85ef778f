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
        SELECT r.id, r.net_id, r.kind, r.pickup_address, r.pickup_lat, r.pickup_lon, r.pickup_place_id, pp.name,
               r.dropoff_address, r.dropoff_lat, r.dropoff_lon, r.dropoff_place_id, dp.name,
               r.requested_at, r.pickup_at, r.estimated_dropoff_at, r.needs_wheelchair, r.companions, r.status,
               r.van_id, r.note, r.reason, r.series_id, r.created_at, r.updated_at, v.name,
               r.promise, r.window_start, r.window_end, r.max_ride_seconds, r.ref
        """

    /// The places' and van's names for a ride aliased `r`.
    static let joins: SQLQuery = """
        LEFT JOIN places pp ON pp.id = r.pickup_place_id
        LEFT JOIN places dp ON dp.id = r.dropoff_place_id
        LEFT JOIN vans v ON v.id = r.van_id
        """

    /// The ride in a row of ``columns``.
    static func ride<Row: PGRowReading>(_ row: Row) throws -> Ride {
        try ride(row, from: 0)
    }

    /// The ride in a row whose ``columns`` start at position `first` (after other columns).
    static func ride<Row: PGRowReading>(_ base: Row, from first: Int) throws -> Ride {
        let row = Shifted(base: base, first: first)
        func endpoint(_ at: Int) throws -> RideEndpoint {
            let lat: Double? = try row.decode(at: at + 1)
            let lon: Double? = try row.decode(at: at + 2)
            var coordinate: Coordinate?
            if let lat, let lon { coordinate = try Coordinate(latitude: lat, longitude: lon) }
            return RideEndpoint(address: try row.decode(at: at), coordinate: coordinate, placeID: try row.decode(at: at + 3), placeName: try row.decode(at: at + 4))
        }
        guard let kind = RideKind(rawValue: try row.decode(at: 2)), let status = RideStatus(rawValue: try row.decode(at: 18)),
              let promiseKind = RidePromise.Kind(rawValue: try row.decode(at: 26)) else {
            throw PGError(kind: .decoding, message: "ride has an unknown kind, status or promise")
        }
        let promise = RidePromise(kind: promiseKind, window: DateInterval(start: try row.decode(at: 27), end: try row.decode(at: 28)))
        return Ride(
            id: try row.decode(at: 0), ref: try RideRef(validating: try row.decode(String.self, at: 30)), netID: try NetID(try row.decode(String.self, at: 1)), kind: kind,
            pickup: try endpoint(3), dropoff: try endpoint(8),
            requestedAt: try row.decode(at: 13), pickupAt: try row.decode(at: 14), estimatedDropoffAt: try row.decode(at: 15),
            promise: promise, maxRideTime: TimeInterval(try row.decode(Int.self, at: 29)),
            needsWheelchair: try row.decode(at: 16), companions: try row.decode(at: 17), status: status,
            vanID: try row.decode(at: 19), vanName: try row.decode(at: 25), note: try row.decode(at: 20), reason: try row.decode(at: 21),
            seriesID: try row.decode(at: 22), createdAt: try row.decode(at: 23), updatedAt: try row.decode(at: 24)
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
                   needs_wheelchair, companions, promise, window_start, window_end, max_ride_seconds, van_pinned_by IS NOT NULL
            FROM rides
            WHERE ride_holds_van(status) AND \(vanFilter)
              AND pickup_at >= \(span.start.addingTimeInterval(-longestRide)) AND pickup_at < \(span.end)
              AND estimated_dropoff_at > \(span.start)
            """
        return try conn.query(query.prepared(), results: .binary) { row in
            func coordinate(_ at: Int) throws -> Coordinate? {
                guard let lat: Double = try row.decode(at: at), let lon: Double = try row.decode(at: at + 1) else { return nil }
                return try Coordinate(latitude: lat, longitude: lon)
            }
            let promise = RidePromise(kind: RidePromise.Kind(rawValue: try row.decode(at: 10)) ?? .pickup,
                                      window: DateInterval(start: try row.decode(at: 11), end: try row.decode(at: 12)))
            var ride = BookedRide(id: try row.decode(at: 0), vanID: try row.decode(at: 1), pickupAt: try row.decode(at: 2),
                                  dropoffAt: try row.decode(at: 3), pickup: try coordinate(4), dropoff: try coordinate(6),
                                  wheelchair: try row.decode(at: 8), companions: try row.decode(at: 9), promise: promise,
                                  maxRideTime: TimeInterval(try row.decode(Int.self, at: 13)))
            ride.vanPinned = try row.decode(at: 14)
            return ride
        }
    }

}

/// A row read from position `first` on, so a decoder written for column 0 reads columns after others.
private struct Shifted<Base: PGRowReading>: PGRowReading {
    let base: Base
    let first: Int

    func decode<T: PGDecodable>(_ type: T.Type, at index: Int) throws(PGError) -> T {
        try base.decode(type, at: first + index)
    }
}
