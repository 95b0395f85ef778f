import Foundation
import VanDomain
import VanScheduler
import VanPostgres

/// A van's run sheet for one day: its route, stop by stop, in the order the driver drives
/// it — who boards and who alights, the planned time, the load aboard after the stop, and the
/// drive from the stop before.
public struct Manifest: Sendable, Codable {
    /// One stop of the route.
    public struct Stop: Sendable, Codable {
        /// Boarding or alighting.
        public enum Action: String, Sendable, Codable {
            /// The rider (and companions) board.
            case pickup
            /// They alight.
            case dropoff
        }
        /// Boarding or alighting.
        public let action: Action
        /// The planned time of the stop.
        public let at: Date
        /// The ride.
        public let ride: Ride
        /// The rider's name, if known.
        public let riderName: String?
        /// The rider's phone, if known.
        public let riderPhone: String?
        /// Seats taken after this stop.
        public let seatsAboard: Int
        /// Wheelchair positions taken after this stop.
        public let wheelchairsAboard: Int
        /// Estimated driving minutes from the stop before (nil for the first stop).
        public let driveMinutes: Int?
    }

    /// The van's name.
    public let van: String
    /// The local date.
    public let day: LocalDate
    /// The van's seats.
    public let seats: Int
    /// Its wheelchair positions.
    public let wheelchairPositions: Int
    /// The stops, in driving order.
    public let stops: [Stop]

    /// How many rides the route carries.
    public var rideCount: Int { Set(stops.map(\.ride.id)).count }

    /// Builds the sheet for `van` on `day`. Pending and approved rides are listed (pending ones
    /// are marked so the driver knows they may change), and the day's completed and no-show
    /// rides too, so the sheet can still be printed for the office's records after the day (a
    /// no-show's drop-off is no stop, and she takes no seat).
    public static func load(pool: PGPool, van: String, day: LocalDate, timeZone: TimeZone) async throws -> Manifest {
        let interval = day.interval(in: timeZone)
        let (listings, capacity) = try await pool.withConnection { conn -> ([RideQueries.Listing], (Int, Int)) in
            guard let row = try conn.query("SELECT seats, wheelchair_positions FROM vans WHERE name = \(van)").first else {
                throw FleetError.unknownVan(van)
            }
            return (
                try RideQueries.listings(
                    conn,
                    where: """
                        r.van_id = (SELECT id FROM vans WHERE name = \(van)) AND r.status IN ('pending', 'approved', 'completed', 'no_show')
                        AND r.pickup_at >= \(interval.start) AND r.pickup_at < \(interval.end)
                        """), (try row.decode(Int.self, "seats"), try row.decode(Int.self, "wheelchair_positions"))
            )
        }
        let estimator = try await ServiceCalendarStore(pool: pool, timeZone: timeZone).settings().estimator
        typealias Event = (at: Date, action: Stop.Action, listing: RideQueries.Listing)
        var events: [Event] = []
        for listing in listings {
            events.append((listing.ride.pickupAt, .pickup, listing))
            if listing.ride.status != .noShow { events.append((listing.ride.estimatedDropoffAt, .dropoff, listing)) }
        }
        events.sort { a, b in a.at != b.at ? a.at < b.at : (a.action == .dropoff && b.action == .pickup) }
        var stops: [Stop] = []
        var seats = 0, wheelchairs = 0
        var previous: Coordinate??
        for (at, action, listing) in events {
            let ride = listing.ride
            let sign = ride.status == .noShow ? 0 : action == .pickup ? 1 : -1
            seats += sign * ride.seatsNeeded
            wheelchairs += sign * ride.wheelchairPositionsNeeded
            let place = action == .pickup ? ride.pickup.coordinate : ride.dropoff.coordinate
            let drive = previous.map { Int((estimator.deadhead(from: $0, to: place) / 60).rounded(.up)) }
            stops.append(
                Stop(
                    action: action, at: at, ride: ride, riderName: listing.riderName, riderPhone: listing.riderPhone,
                    seatsAboard: seats, wheelchairsAboard: wheelchairs, driveMinutes: drive))
            previous = .some(place)
        }
        return Manifest(van: van, day: day, seats: capacity.0, wheelchairPositions: capacity.1, stops: stops)
    }
}
