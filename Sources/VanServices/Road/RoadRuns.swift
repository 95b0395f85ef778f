import Foundation
import VanDomain
import VanPostgres

/// The one reader of vans' runs (``VanRun``): the rides on vans in a span, slim (times, promise,
/// places, load) with what the drivers tapped at their stops. The ETAs (``ETAService``), the day
/// board (``DayBoard``), the map and `vanadmin vans status` (``VanStatusBoard``) all read their
/// vans' stops here, and order and judge them by the same rules (``RunOrder``, ``Lateness``).
///
/// Two statements whatever the span holds: the rides (prepared, binary), and their stops'
/// actual times by ride id.
public enum RoadRuns {
    /// Which rides a run holds.
    public enum Rides: Sendable {
        /// Those holding their van (pending, approved): the run still to drive.
        case holdingVan
        /// Those of the day as well (completed, no-show): the run as driven, for the board.
        case ofTheDay
    }

    /// The runs of the vans with rides picked up in `span` (of `vans` alone, when given), by van.
    public static func read(_ conn: PGConnection, span: DateInterval, vans: [Int64]? = nil, rides: Rides) throws -> [Int64: VanRun] {
        // Two fixed forms each (no `IS NULL OR` for the planner to guess through): the statuses
        // of a run still to drive or of the day, over every van or the vans asked for.
        let statuses: SQLQuery =
            switch rides {
            case .holdingVan: "ride_holds_van(status)"
            case .ofTheDay: "status IN ('pending', 'approved', 'completed', 'no_show')"
            }
        // One van (the ETAs' and the driver's read) by `=`, so the generic plan takes its index.
        let vanFilter: SQLQuery =
            if let vans, vans.count == 1 {
                "van_id = \(vans[0])"
            } else if let vans {
                "van_id = ANY(\("{" + vans.map(String.init).joined(separator: ",") + "}")::bigint[])"
            } else {
                "van_id IS NOT NULL"
            }
        // The hot read of the board: prepared, binary, no joins.
        let query: SQLQuery = """
            SELECT id, ref, van_id, net_id, status, pickup_at, estimated_dropoff_at, promise, window_start, window_end,
                   needs_wheelchair, companions, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon, reminded_at IS NOT NULL AS reminded
            FROM rides
            WHERE \(vanFilter) AND \(statuses) AND pickup_at >= \(span.start) AND pickup_at < \(span.end)
            """
        let rows = try conn.query(query.prepared(), results: .binary) { row -> (van: Int64, ride: VanRun.Ride) in
            guard let status = RideStatus(rawValue: try row.decode(String.self, "status")),
                let promise = RidePromise.Kind(rawValue: try row.decode(String.self, "promise"))
            else {
                throw PGError(kind: .decoding, message: "ride has an unknown status or promise")
            }
            func coordinate(_ prefix: String) throws -> Coordinate? {
                guard let lat = try row.decode(Double?.self, prefix + "_lat"), let lon = try row.decode(Double?.self, prefix + "_lon") else {
                    return nil
                }
                return try Coordinate(latitude: lat, longitude: lon)
            }
            let ride = VanRun.Ride(
                id: try row.decode(UUID.self, "id"), ref: try RideRef(validating: try row.decode(String.self, "ref")),
                netID: try row.decode(String.self, "net_id"), status: status,
                promise: RidePromise(
                    kind: promise,
                    window: DateInterval(
                        start: try row.decode(Date.self, "window_start"),
                        end: try row.decode(Date.self, "window_end"))),
                pickupAt: try row.decode(Date.self, "pickup_at"), dropoffAt: try row.decode(Date.self, "estimated_dropoff_at"),
                pickup: try coordinate("pickup"), dropoff: try coordinate("dropoff"),
                wheelchair: try row.decode(Bool.self, "needs_wheelchair"), companions: try row.decode(Int.self, "companions"),
                reminded: try row.decode(Bool.self, "reminded"))
            return (try row.decode(Int64.self, "van_id"), ride)
        }
        let actuals = try Self.actuals(conn, rides: rows.map(\.ride.id))
        var byVan: [Int64: [(ride: VanRun.Ride, pickup: VanRun.Actual, dropoff: VanRun.Actual)]] = [:]
        for (van, ride) in rows {
            byVan[van, default: []].append(
                (ride, actuals[Key(ride: ride.id, kind: .pickup)] ?? .none, actuals[Key(ride: ride.id, kind: .dropoff)] ?? .none))
        }
        var runs: [Int64: VanRun] = [:]
        for (van, rides) in byVan { runs[van] = VanRun(vanID: van, rides: rides) }
        return runs
    }

    /// A ride's pickup or drop-off.
    struct Key: Hashable {
        let ride: UUID
        let kind: StopKind
    }

    /// The actual times tapped at the stops of `rides` (``stop_actuals``: an index scan by ride).
    static func actuals(_ conn: PGConnection, rides: [UUID]) throws -> [Key: VanRun.Actual] {
        guard !rides.isEmpty else { return [:] }
        let query: SQLQuery = """
            SELECT ride_id, stop, arrived_at, departed_at, outcome FROM stop_actuals WHERE ride_id = ANY(\(rides.postgresArrayLiteral)::uuid[])
            """
        var actuals: [Key: VanRun.Actual] = [:]
        for (key, actual) in try conn.query(
            query.prepared(), results: .binary,
            rows: { row in
                (
                    Key(ride: try row.decode(UUID.self, "ride_id"), kind: StopKind(rawValue: try row.decode(String.self, "stop")) ?? .pickup),
                    VanRun.Actual(
                        arrivedAt: try row.decode(Date?.self, "arrived_at"), doneAt: try row.decode(Date?.self, "departed_at"),
                        outcome: try row.decode(String?.self, "outcome").flatMap(TapAction.init(rawValue:)))
                )
            })
        {
            actuals[key] = actual
        }
        return actuals
    }
}
