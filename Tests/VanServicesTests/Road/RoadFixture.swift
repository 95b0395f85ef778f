import Foundation
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// Two vans, riders, drivers `driver1`…`driver3`, approved rides booked on Monday 2026-11-23,
/// and the road services on a manual clock set to that Monday morning.
struct RoadFixture {
    let base: BookingFixture
    let clock: ManualClock
    let road: Road
    var db: Database { base.db }
    var zone: TimeZone { base.zone }
    let driver1 = try! NetID("driver1")
    let driver2 = try! NetID("driver2")

    init(settings: RoadSettings = RoadSettings()) async throws {
        base = try await BookingFixture(vans: [("Van 1", 8, 1), ("Van 2", 8, 1)], riders: 12)
        clock = ManualClock(base.monday(7))
        road = Road(pool: base.db.pool, clock: clock, settings: settings, timeZone: base.zone)
        try await base.db.pool.withTransaction { conn in
            for index in 1...3 {
                try conn.execute("INSERT INTO riders (net_id, password_hash, role, name) VALUES (\("driver\(index)"), 'x', 'driver', 'Dee River')")
            }
            try conn.execute("UPDATE riders SET name = 'Jamie Doe', phone = '6075550100' WHERE net_id = 'rider0'")
        }
    }

    func monday(_ hour: Int, _ minute: Int = 0) -> Date { base.monday(hour, minute) }

    /// The id of the van named `name`.
    func van(_ name: String) async throws -> Int64 {
        try await db.pool.withConnection { try $0.query("SELECT id FROM vans WHERE name = \(name)").first!.decode(Int64.self, at: 0) }
    }

    /// Books rider `rider`'s ride picked up at `date` (a pickup promise) on the van named `van`, approved.
    func approvedRide(_ rider: Int, at date: Date, van: String = "Van 1") async throws -> Ride {
        guard case .booked(let ride) = try await base.booking.book(base.request(rider, at: date), now: base.now) else {
            throw TestFailure("booking rider\(rider) at \(date) failed")
        }
        return try await DispatchService(pool: db.pool, timeZone: zone).approve(ride.id.uuidString, van: van, actor: "test", now: base.now)
    }

    /// A tap request with a fresh key.
    func tap(_ ride: Ride, _ stop: StopKind, _ action: TapAction, key: UUID = UUID(), position: PositionFix? = nil) -> TapRequest {
        TapRequest(tapKey: key, rideID: ride.id, stop: stop, action: action, position: position)
    }

    func status(_ ride: Ride) async throws -> String {
        try await db.pool.withConnection { try $0.query("SELECT status FROM rides WHERE id = \(ride.id)").first!.decode(String.self, at: 0) }
    }

    func count(_ sql: SQLQuery) async throws -> Int { try await base.count(sql) }
}
