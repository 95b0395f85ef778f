import Foundation
import VanDomain
import VanPostgres
import VanScheduler
import VanServices

/// The routes a campus day left in the database, read back as plain rows, and what they measure.
/// Each van's route is its rides' stops in the order of their planned times (a drop-off before a
/// pickup at the same instant), as the scheduler reads them.
struct CampusRoutes: Sendable {
    /// A van's capacity.
    struct VanRow: Hashable, Sendable {
        var id: Int64
        var seats: Int
        var wheelchairPositions: Int
    }

    /// A stored ride holding a van.
    struct RideRow: Hashable, Sendable {
        var id: UUID
        var vanID: Int64
        var pickupAt: Date
        var dropoffAt: Date
        var pickup: Coordinate
        var dropoff: Coordinate
        var wheelchair: Bool
        var companions: Int
        var promise: RidePromise
        var maxRideSeconds: Int
    }

    var vans: [VanRow]
    var rides: [RideRow]
    /// The trip figures the scheduler booked with.
    var estimator: TripEstimator

    /// Reads the vans, the rides holding them and the scheduler's trip figures.
    static func load(from database: Database, timeZone: TimeZone, around date: Date) async throws -> CampusRoutes {
        let estimator = try await ServiceCalendarStore(pool: database.pool, timeZone: timeZone).scheduler(around: date).estimator
        return try await database.pool.withConnection { conn in
            let vans = try conn.query("SELECT id, seats, wheelchair_positions FROM vans ORDER BY id").map { row in
                VanRow(
                    id: try row.decode(Int64.self, "id"), seats: try row.decode(Int.self, "seats"),
                    wheelchairPositions: try row.decode(Int.self, "wheelchair_positions"))
            }
            let rides = try conn.query(
                """
                SELECT id, van_id, pickup_at, estimated_dropoff_at, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon,
                       needs_wheelchair, companions, promise, window_start, window_end, max_ride_seconds
                FROM rides WHERE ride_holds_van(status) AND van_id IS NOT NULL ORDER BY id
                """
            ).map { row in
                guard let kind = RidePromise.Kind(rawValue: try row.decode(String.self, "promise")) else {
                    throw CampusBenchError("a ride has an unknown promise")
                }
                return RideRow(
                    id: try row.decode(UUID.self, "id"), vanID: try row.decode(Int64.self, "van_id"),
                    pickupAt: try row.decode(Date.self, "pickup_at"), dropoffAt: try row.decode(Date.self, "estimated_dropoff_at"),
                    pickup: try Coordinate(latitude: try row.decode(Double.self, "pickup_lat"), longitude: try row.decode(Double.self, "pickup_lon")),
                    dropoff: try Coordinate(
                        latitude: try row.decode(Double.self, "dropoff_lat"), longitude: try row.decode(Double.self, "dropoff_lon")),
                    wheelchair: try row.decode(Bool.self, "needs_wheelchair"), companions: try row.decode(Int.self, "companions"),
                    promise: RidePromise(
                        kind: kind,
                        window: DateInterval(start: try row.decode(Date.self, "window_start"), end: try row.decode(Date.self, "window_end"))),
                    maxRideSeconds: try row.decode(Int.self, "max_ride_seconds"))
            }
            return CampusRoutes(vans: vans, rides: rides, estimator: estimator)
        }
    }

    /// One stop of a route.
    struct Stop {
        var at: Date
        var pickup: Bool
        var ride: RideRow
        var place: Coordinate { pickup ? ride.pickup : ride.dropoff }
        /// Boarding at a pickup, alighting at a drop-off.
        func service(_ estimator: TripEstimator) -> TimeInterval {
            switch (pickup, ride.wheelchair) {
            case (true, false): estimator.boarding
            case (true, true): estimator.wheelchairBoarding
            case (false, false): estimator.alighting
            case (false, true): estimator.wheelchairAlighting
            }
        }
    }

    /// Each van's stops in route order, by van id (vans with no ride left out).
    var routes: [Int64: [Stop]] {
        var routes: [Int64: [Stop]] = [:]
        for ride in rides {
            routes[ride.vanID, default: []].append(Stop(at: ride.pickupAt, pickup: true, ride: ride))
            routes[ride.vanID, default: []].append(Stop(at: ride.dropoffAt, pickup: false, ride: ride))
        }
        return routes.mapValues { stops in
            stops.sorted { a, b in
                if a.at != b.at { return a.at < b.at }
                if a.pickup != b.pickup { return !a.pickup }
                return a.ride.id.uuidString < b.ride.id.uuidString
            }
        }
    }

    /// Driving between consecutive stops of every route, in minutes (no garage legs: a van
    /// starts and ends the day wherever its route does, as the scheduler plans it).
    var drivingMinutes: Double {
        routes.values.reduce(0) { total, stops in
            zip(stops, stops.dropFirst()).reduce(total) { $0 + estimator.deadhead(from: $1.0.place, to: $1.1.place) / 60 }
        }
    }

    /// Minutes riders spend aboard a van that waits (for a stop's window to open), summed over
    /// riders: each gap between a stop and the next beyond boarding or alighting and the drive,
    /// times the riders aboard. The planned schedule serves every stop as early as it can.
    var waitingAboardMinutes: Double {
        var total = 0.0
        for stops in routes.values {
            var aboard = 0
            for (index, stop) in stops.enumerated() {
                if index > 0 {
                    let previous = stops[index - 1]
                    let busy = previous.service(estimator) + estimator.deadhead(from: previous.place, to: stop.place)
                    total += max(0, stop.at.timeIntervalSince(previous.at) - busy) * Double(aboard) / 60
                }
                aboard += stop.pickup ? 1 : -1
            }
        }
        return total
    }

    /// Vans with at least one ride.
    var vansUsed: Int { Set(rides.map(\.vanID)).count }

    /// The direct ride: boarding and the drive, as ``Scheduler/directRide(for:)`` counts it.
    func direct(_ ride: RideRow) -> TimeInterval {
        (ride.wheelchair ? estimator.wheelchairBoarding : estimator.boarding) + estimator.deadhead(from: ride.pickup, to: ride.dropoff)
    }

    /// Mean over the rides `including` picks of the planned ride time (pickup to drop-off) ÷ the
    /// direct ride; nil with no such ride.
    func meanRideRatio(including: (RideRow) -> Bool = { _ in true }) -> Double? {
        let picked = rides.filter(including)
        guard !picked.isEmpty else { return nil }
        return picked.reduce(0) { $0 + $1.dropoffAt.timeIntervalSince($1.pickupAt) / direct($1) } / Double(picked.count)
    }
}
