import Foundation
import VanDomain
import VanPostgres
import VanScheduler
import VanServices

/// The two ways of running the vans that the campus day compares on the same requests.
enum CampusModel: String, Hashable, Sendable, CaseIterable {
    /// Shared rides on van routes, with the default settings (15-minute windows, ride-time limits).
    case shared
    /// Today's one-rider model: a ride holds its whole van from pickup to drop-off, and the
    /// rider is promised the exact time asked for (a zero-minute window).
    case oneRider

    /// The column heading in the table.
    var title: String {
        switch self {
        case .shared: "shared"
        case .oneRider: "one rider"
        }
    }

    /// Sets the model's rules on a database that has its fleet: nothing for shared rides; for one
    /// rider, what `Database.oneRiderAtATime()` does in the tests (every van one seat and a
    /// zero-minute window), with at most one wheelchair position per van too, so a wheelchair
    /// rider and another party never share either. Suggestions stay on the default one-minute
    /// grid in both models, so refused riders are offered times the same way.
    func apply(to database: Database) async throws {
        guard self == .oneRider else { return }
        try await database.pool.withConnection { conn in
            try conn.execute("UPDATE vans SET seats = 1, wheelchair_positions = least(wheelchair_positions, 1)")
            try conn.execute(
                """
                INSERT INTO settings (key, value, updated_by) VALUES ('scheduler', '{"windowMinutes": 0}', 'vand-bench')
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """)
        }
    }

    /// What the rider asks for under this model: the request's own promise for shared rides. The
    /// one-rider model had no arrive-by promise: that rider asks to be picked up the direct ride
    /// before the arrival time (to the minute, rounding earlier), and rides alone, so arrives by it.
    func ask(_ request: CampusRequest, from: Coordinate, to: Coordinate, estimator: TripEstimator) -> (promise: RidePromise.Kind, at: Date) {
        guard self == .oneRider, request.promise == .arriveBy else { return (request.promise, request.asked) }
        let direct =
            estimator.tripDuration(from: from, to: to, wheelchair: request.wheelchair)
            - (request.wheelchair ? estimator.wheelchairAlighting : estimator.alighting)
        let pickup = request.asked.addingTimeInterval(-direct).timeIntervalSince1970
        return (.pickup, Date(timeIntervalSince1970: (pickup / 60).rounded(.down) * 60))
    }

    /// The companions booked for `request`: its own for shared rides; for one rider, as many as
    /// make the party fill the van's one seat whatever its size (a wheelchair rider takes the
    /// wheelchair position and, through one companion, the seat), so a ride holds the whole van.
    func companions(for request: CampusRequest) -> Int {
        switch self {
        case .shared: request.companions
        case .oneRider: request.wheelchair ? 1 : 0
        }
    }
}
