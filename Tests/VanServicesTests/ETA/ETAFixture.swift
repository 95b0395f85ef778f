import Foundation
import Testing
import VanDomain
import VanScheduler
import VanTestSupport
@testable import VanServices
import VanPostgres

/// The ETA tests' world: the event fixture plus the road: a driver's shift, positions and taps written with SQL into the
/// 0028 tables (as the road's services write them), and rides from SCL to Davenport with windows.
struct ETAFixture {
    let events: EventFixture
    var db: Database { events.db }
    var clock: ManualClock { events.clock }
    var now: Date { events.now }
    let scl = try! Coordinate(latitude: 41.31633, longitude: -72.92241)
    let davenport = try! Coordinate(latitude: 41.30917, longitude: -72.93139)
    let estimator = TripEstimator()

    init() async throws {
        events = try await EventFixture()
        try await events.sql("INSERT INTO riders (net_id, password_hash, role) VALUES ('drv1', 'x', 'driver'), ('drv2', 'x', 'driver')")
    }

    /// A point `meters` north of `origin`: the model drives it in `meters` × 1.3 ÷ 20 km/h.
    func north(of origin: Coordinate, meters: Double) -> Coordinate {
        try! Coordinate(latitude: origin.latitude + meters / Coordinate.earthRadius * 180 / .pi, longitude: origin.longitude)
    }

    /// Opens a shift for `driver` on `van`; returns its id.
    @discardableResult
    func shift(van: Int64 = 1, driver: String = "drv1") async throws -> Int64 {
        try await db.pool.withConnection { conn in
            try conn.query(
                """
                INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES (\(driver), \(van), \(now.addingTimeInterval(-3_600))) RETURNING id
                """
            ).first!.decode(Int64.self, at: 0)
        }
    }

    /// Writes `van`'s latest position, `age` seconds old.
    func position(_ at: Coordinate, age: TimeInterval = 0, van: Int64 = 1) async throws {
        try await events.sql(
            """
            INSERT INTO van_positions (van_id, at, lat, lon, source) VALUES (\(van), \(now.addingTimeInterval(-age)), \(at.latitude), \(at.longitude), 'driver')
            ON CONFLICT (van_id) DO UPDATE SET at = EXCLUDED.at, lat = EXCLUDED.lat, lon = EXCLUDED.lon
            """)
    }

    /// A driver's tap on `shift`, `age` seconds ago.
    func tap(_ shift: Int64, ride: UUID, _ stop: String, _ action: String, age: TimeInterval = 0) async throws {
        try await events.sql(
            """
            INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
            VALUES (\(UUID()), \(shift), \(ride), \(stop), \(action), \(now.addingTimeInterval(-age)))
            """)
    }

    /// A ride from SCL to Davenport planned `minutes` from now, promised a pickup in the 15 minutes
    /// from then, dropped off 10 minutes after pickup.
    @discardableResult
    func ride(rider: String = "ann1", pickupIn minutes: Double, status: String = "approved", van: Int64 = 1) async throws -> UUID {
        let id = UUID()
        let pickup = now.addingTimeInterval(minutes * 60)
        try await events.sql(
            """
            INSERT INTO rides (id, net_id, kind, pickup_place_id, pickup_lat, pickup_lon, dropoff_place_id, dropoff_lat, dropoff_lon,
                               requested_at, pickup_at, estimated_dropoff_at, status, van_id, promise, window_start, window_end)
            SELECT \(id), \(rider), 'scheduled', p.id, p.lat, p.lon, d.id, d.lat, d.lon, \(now), \(pickup), \(pickup.addingTimeInterval(600)),
                   \(status), \(van), 'pickup', \(pickup), \(pickup.addingTimeInterval(900))
            FROM places p, places d WHERE p.name = 'Sterling Chemistry Lab' AND d.name = 'Davenport College'
            """)
        return id
    }

    /// The ETA service on this database (ETA lead 30 min, positions stale after 120 s).
    var service: ETAService { ETAService(pool: db.pool, settings: EventSettings(), timeZone: events.zone) }

    /// A feed on this database and clock, raising alerts and firing reminders, telling `routeChanges` of late vans.
    func feed(routeChanges: RouteChangeHook = .none) -> ETAFeed {
        ETAFeed(
            configuration: db.pool.configuration, service: service,
            reminders: Reminders(pool: db.pool, lead: 15 * 60, positionStale: 120, timeZone: events.zone),
            alerts: LateAlerts(pool: db.pool), clock: clock, logger: TestCluster.quietLogger, routeChanges: routeChanges)
    }
}
