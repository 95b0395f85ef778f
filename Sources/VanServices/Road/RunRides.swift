import Foundation
import VanDomain
import VanPostgres

/// The rides of a van's run on a service day, as the driver's run and the tap checks read them:
/// rides on the van, picked up that day, holding the van or ended on the road (completed, no-show).
/// One definition, so what a driver sees and what she may tap are the same stops.
enum RunRides {
    /// A ride of the run, with what the driver's page shows of it.
    struct Row {
        let id: UUID
        let ref: RideRef
        let netID: String
        let status: RideStatus
        let pickupAt: Date
        let dropoffAt: Date
        let wheelchair: Bool
        let companions: Int
        let note: String?
        let promise: RidePromise
        let pickup: End
        let dropoff: End
        let riderName: String?
        let riderPhone: PhoneNumber?
        /// The pickup time the rider was last told in a late alert (its ETA); nil: never told.
        let toldPickupETA: Date?

        struct End {
            let address: String?
            let coordinate: Coordinate?
            let placeName: String?
            let placeShort: String?
        }
    }

    static let statuses = "{pending,approved,completed,no_show}"

    private static let select: SQLQuery = """
        SELECT r.id, r.ref, r.net_id, r.status, r.pickup_at, r.estimated_dropoff_at, r.needs_wheelchair, r.companions, r.note,
               r.promise, r.window_start, r.window_end,
               r.pickup_address, r.pickup_lat, r.pickup_lon, pp.name AS pickup_name, pp.aliases[1] AS pickup_alias,
               r.dropoff_address, r.dropoff_lat, r.dropoff_lon, dp.name AS dropoff_name, dp.aliases[1] AS dropoff_alias,
               rd.name AS rider_name, rd.phone AS rider_phone,
               (SELECT a.eta FROM ride_alerts a WHERE a.ride_id = r.id AND a.kind = 'late' AND a.stop = 'pickup') AS told_pickup_eta
        FROM rides r
        LEFT JOIN places pp ON pp.id = r.pickup_place_id
        LEFT JOIN places dp ON dp.id = r.dropoff_place_id
        JOIN riders rd ON rd.net_id = r.net_id
        """

    /// The van's rides picked up in `day` (an interval of the service zone), by pickup time.
    static func all(vanID: Int64, day: DateInterval, _ conn: PGConnection) throws -> [Row] {
        try conn.query(
            """
            \(select) WHERE r.van_id = \(vanID) AND r.pickup_at >= \(day.start) AND r.pickup_at < \(day.end)
              AND r.status = ANY(\(statuses)::text[])
            ORDER BY r.pickup_at, r.id
            """
        ).map(row)
    }

    /// The ride `id` if it is on the run, its row locked until the transaction ends (taps and
    /// undos of one ride take turns here).
    static func locked(_ id: UUID, vanID: Int64, day: DateInterval, _ conn: PGConnection) throws -> Row? {
        try conn.query(
            """
            \(select) WHERE r.id = \(id) AND r.van_id = \(vanID) AND r.pickup_at >= \(day.start) AND r.pickup_at < \(day.end)
              AND r.status = ANY(\(statuses)::text[])
            FOR UPDATE OF r
            """
        ).first.map(row)
    }

    static func row(_ row: PGRow) throws -> Row {
        guard let status = RideStatus(rawValue: try row.decode(String.self, "status")),
            let kind = RidePromise.Kind(rawValue: try row.decode(String.self, "promise"))
        else {
            throw PGError(kind: .decoding, message: "ride has an unknown status or promise")
        }
        func end(_ prefix: String) throws -> Row.End {
            let lat = try row.decode(Double?.self, "\(prefix)_lat")
            let lon = try row.decode(Double?.self, "\(prefix)_lon")
            var coordinate: Coordinate?
            if let lat, let lon { coordinate = try Coordinate(latitude: lat, longitude: lon) }
            let name = try row.decode(String?.self, "\(prefix)_name")
            let alias = try row.decode(String?.self, "\(prefix)_alias")
            let address = try row.decode(String?.self, "\(prefix)_address")
            return Row.End(address: address, coordinate: coordinate, placeName: name, placeShort: alias ?? name ?? address)
        }
        return Row(
            id: try row.decode(UUID.self, "id"), ref: try RideRef(validating: try row.decode(String.self, "ref")),
            netID: try row.decode(String.self, "net_id"), status: status,
            pickupAt: try row.decode(Date.self, "pickup_at"), dropoffAt: try row.decode(Date.self, "estimated_dropoff_at"),
            wheelchair: try row.decode(Bool.self, "needs_wheelchair"), companions: try row.decode(Int.self, "companions"),
            note: try row.decode(String?.self, "note"),
            promise: RidePromise(
                kind: kind, window: DateInterval(start: try row.decode(Date.self, "window_start"), end: try row.decode(Date.self, "window_end"))),
            pickup: try end("pickup"), dropoff: try end("dropoff"),
            riderName: try row.decode(String?.self, "rider_name"), riderPhone: try row.decode(PhoneNumber?.self, "rider_phone"),
            toldPickupETA: try row.decode(Date?.self, "told_pickup_eta")
        )
    }
}
