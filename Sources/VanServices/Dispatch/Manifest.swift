import Foundation
import VanDomain
import VanScheduler
import VanPostgres

/// A van's run sheet for one day: the rides holding it, in pickup order, with the
/// deadhead minutes the driver has before each pickup.
public struct Manifest: Sendable, Codable {
    /// One stop pair on the sheet.
    public struct Stop: Sendable, Codable {
        /// The ride.
        public let ride: Ride
        /// The rider's name, if known.
        public let riderName: String?
        /// The rider's phone, if known.
        public let riderPhone: String?
        /// Estimated driving minutes from the previous drop-off (nil for the first ride).
        public let deadheadMinutes: Int?
    }

    /// The van's name.
    public let van: String
    /// The local date.
    public let day: LocalDate
    /// The rides, pickup order.
    public let stops: [Stop]

    /// Builds the sheet for `van` on `day`. Pending and approved rides are listed
    /// (pending ones are marked so the driver knows they may change).
    public static func load(pool: PGPool, van: String, day: LocalDate, timeZone: TimeZone) async throws -> Manifest {
        let interval = day.interval(in: timeZone)
        let listings = try await pool.withConnection { conn -> [RideQueries.Listing] in
            guard try conn.query("SELECT 1 FROM vans WHERE name = \(van)").count == 1 else { throw FleetError.unknownVan(van) }
            return try RideQueries.listings(conn, where: """
                r.van_id = (SELECT id FROM vans WHERE name = \(van)) AND ride_holds_van(r.status)
                AND r.pickup_at >= \(interval.start) AND r.pickup_at < \(interval.end)
                """)
        }
        let estimator = try await ServiceCalendarStore(pool: pool, timeZone: timeZone).settings().estimator
        var stops: [Stop] = []
        var previous: Ride?
        for listing in listings {
            let deadhead = previous.map { Int((estimator.deadhead(from: $0.dropoff.coordinate, to: listing.ride.pickup.coordinate) / 60).rounded(.up)) }
            stops.append(Stop(ride: listing.ride, riderName: listing.riderName, riderPhone: listing.riderPhone, deadheadMinutes: deadhead))
            previous = listing.ride
        }
        return Manifest(van: van, day: day, stops: stops)
    }
}
