import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// A fresh database with the demo places and vans, riders `ann1` and `bob2`, a
/// manual clock (Sunday 2026-11-29 07:00 New York), and helpers that write rides
/// the way psql would — the triggers must see every writer.
struct EventFixture {
    let db: Database
    let clock = ManualClock()
    let zone = TimeZone(identifier: "America/New_York")!

    init() async throws {
        db = try await TestCluster.makeDatabase()
        _ = try await DemoData.load(into: db.pool, actor: "test")
        try await sql("INSERT INTO riders (net_id, password_hash) VALUES ('ann1', 'x'), ('bob2', 'x')")
    }

    var now: Date { clock.now }

    /// Runs SQL (raw, like psql).
    @discardableResult
    func sql(_ query: SQLQuery) async throws -> Int {
        try await db.pool.withConnection { try $0.execute(query) }
    }

    func count(_ query: SQLQuery) async throws -> Int {
        try await db.pool.withConnection { try $0.query(query).first!.decode(Int.self, at: 0) }
    }

    /// Inserts a ride from SCL to Davenport with plain SQL; returns its id.
    @discardableResult
    func insertRide(rider: String = "ann1", pickupIn minutes: Double, status: String = "pending", van: Int64? = 1) async throws -> UUID {
        let id = UUID()
        let pickup = now.addingTimeInterval(minutes * 60)
        try await sql(
            """
            INSERT INTO rides (id, net_id, kind, pickup_place_id, dropoff_place_id, requested_at, pickup_at, estimated_dropoff_at, status, van_id)
            SELECT \(id), \(rider), 'scheduled', p.id, d.id, \(now), \(pickup), \(pickup.addingTimeInterval(600)), \(status),
                   (SELECT id FROM vans WHERE id = \(van))
            FROM places p, places d WHERE p.name = 'Sterling Chemistry Lab' AND d.name = 'Davenport College'
            """)
        return id
    }

    /// Kinds of the events for `ride`, oldest first.
    func kinds(_ ride: UUID) async throws -> [String] {
        try await db.pool.withConnection { conn in
            try conn.query("SELECT kind FROM ride_events WHERE ride_id = \(ride) ORDER BY id").map { try $0.decode(String.self, at: 0) }
        }
    }

    /// A loop on this database and clock.
    func loop(_ settings: EventSettings = EventSettings(), transport: any WebhookTransport = HTTPWebhookTransport(), worker: String? = nil)
        -> TriggerLoop
    {
        TriggerLoop(
            pool: db.pool, settings: settings, timeZone: zone, clock: clock, transport: transport, workerID: worker, logger: TestCluster.quietLogger)
    }

    /// The rider's inbox messages, oldest first.
    func inbox(_ rider: String) async throws -> [String] {
        try await Inbox(pool: db.pool).list(rider).map(\.message)
    }
}
