import Foundation
import Testing
import VanDomain
import VanPostgres
import VanServices
import VanTestSupport
@testable import vand

/// ``ConsoleWorld`` with ann1's record under the no-show policy: four missed trips this past
/// week, booked through ``BookingService`` at the time and closed as no-shows, three with the
/// driver's taps that prove the van came in time and waited (they count) and one without (it
/// does not); the service's review then writes the notice of a proposed suspension.
struct StandingWorld {
    let w: ConsoleWorld
    /// The missed trips' references, oldest first: the first three count, the last does not.
    let refs: [String]
    /// The notice the review wrote.
    let notice: Suspension

    init() async throws {
        w = try await ConsoleWorld()
        var refs: [String] = []
        for daysAgo in [4, 3, 2, 1] { refs.append(try await Self.missedTrip(w, daysAgo: daysAgo, hour: 10, provenByTaps: daysAgo > 1)) }
        self.refs = refs
        let standing = NoShowStanding(
            pool: w.f.database.pool, rule: w.configuration.settings.road.noShowRule, timeZone: w.configuration.timeZone,
            hotline: w.configuration.hotline)
        guard let notice = try await standing.review("ann1", now: w.f.clock.now) else { throw TestFailure("ann1's record did not cross the policy") }
        self.notice = notice
    }

    /// A trip of ann1's `daysAgo` days before today at `hour`:00, booked an hour before through
    /// ``BookingService`` and closed as a no-show; with the driver's taps at the pickup (arrived at
    /// the window's start, no-show 15 minutes later) when `provenByTaps`. Answers its reference.
    @discardableResult
    static func missedTrip(_ w: ConsoleWorld, daysAgo: Int, hour: Int, provenByTaps: Bool) async throws -> String {
        let pool = w.f.database.pool
        let booking = BookingService(pool: pool, timeZone: w.configuration.timeZone)
        let scl = try Coordinate(latitude: 41.31633, longitude: -72.92241), dav = try Coordinate(latitude: 41.30917, longitude: -72.93139)
        let pickupAt = w.at(hour, 0).addingTimeInterval(-Double(daysAgo) * 86_400)
        let ride = NewRide(
            id: .timeOrdered(at: pickupAt.addingTimeInterval(-3_600)), netID: try NetID("ann1"),
            pickup: RideEndpoint(coordinate: scl, placeName: "SCL"), dropoff: RideEndpoint(coordinate: dav, placeName: "Davenport"),
            pickupAt: pickupAt)
        guard case .booked(let booked) = try await booking.bookSeries([ride], now: pickupAt.addingTimeInterval(-3_600)).first else {
            throw TestFailure("could not book ann1's trip \(daysAgo) days ago")
        }
        try await pool.withConnection { conn in
            if provenByTaps {
                let arrived = booked.promise.window.start
                let shift = try conn.query(
                    """
                    INSERT INTO shifts (driver_net_id, van_id, started_at, ended_at)
                    VALUES ('dana1', (SELECT id FROM vans WHERE name = 'Van 1'), \(arrived.addingTimeInterval(-3_600)),
                            \(arrived.addingTimeInterval(3_600))) RETURNING id
                    """
                ).first!.decode(Int64.self, at: 0)
                for (action, at) in [("arrived", arrived), ("no_show", arrived.addingTimeInterval(15 * 60))] {
                    try conn.execute(
                        """
                        INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
                        VALUES (\(UUID()), \(shift), \(booked.id), 'pickup', \(action), \(at))
                        """)
                }
            }
            try conn.execute("UPDATE rides SET status = 'no_show' WHERE id = \(booked.id)")
        }
        return booked.ref.rawValue
    }

    /// The no-show policy's service on this world's database and clock.
    var standing: NoShowStanding {
        NoShowStanding(
            pool: w.f.database.pool, rule: w.configuration.settings.road.noShowRule, timeZone: w.configuration.timeZone,
            hotline: w.configuration.hotline)
    }

    /// The notice's status now.
    func status() async throws -> String {
        try await w.f.database.pool.withConnection {
            try $0.query("SELECT status FROM suspensions WHERE id = \(notice.id)").first!.decode(String.self, at: 0)
        }
    }

    /// Puts the notice in effect from today for a week, as if its start had come.
    func inEffectToday() async throws {
        let today = LocalDate(containing: w.f.clock.now, in: w.configuration.timeZone)
        try await w.f.database.pool.withConnection { conn in
            try conn.execute(
                """
                UPDATE suspensions SET starts_on = \(today), ends_on = \(LocalDate(dayNumber: today.dayNumber + 7)) WHERE id = \(notice.id)
                """)
        }
    }
}
