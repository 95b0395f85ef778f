import Foundation
import Hummingbird
import HummingbirdTesting
import VanDomain
import VanServices
import VanPostgres
import VanTestSupport
@testable import vand

/// The demo fleet and places, open all day every day; a rider (ann1, whitelisted), a driver
/// (dana1) and a dispatcher (dee1, "Dee Dispatcher"), each with the password
/// "correct horse battery". The clock stands at Sunday 2026-11-29 07:00 in New York.
/// The console's tests (WebDispatch*Tests) start from here.
struct ConsoleWorld {
    let f: RouterFixture
    /// The fixture's configuration (rides wait for approval: the queue has work).
    let configuration: AppConfiguration
    /// The clock's start: Sunday 2026-11-29 07:00 in New York.
    let start: Date

    /// The name the audit log records for dee1's actions in the console.
    static let dispatcherActor = "Dee Dispatcher (dee1)"

    init() async throws {
        f = try await RouterFixture()
        start = f.clock.now
        let pool = f.database.pool
        _ = try await DemoData.load(into: pool, actor: "test")
        try await ServiceCalendarStore(pool: pool, timeZone: f.configuration.timeZone)
            .setHours(try (1...7).map { try ServiceWindow(weekday: $0, start: "00:00", end: "24:00") }, actor: "office")
        for netID in ["ann1", "dana1", "dee1"] { try await f.activeRider(netID) }
        _ = try await f.whitelist.add(WhitelistPatch(netID: try NetID("ann1")), actor: "office")
        try await pool.withConnection { conn in
            try conn.execute("UPDATE riders SET name = 'Ann Rivera', phone = '203-555-0111' WHERE net_id = 'ann1'")
            try conn.execute("UPDATE riders SET name = 'Dana Driver', role = 'driver' WHERE net_id = 'dana1'")
            try conn.execute("UPDATE riders SET name = 'Dee Dispatcher', role = 'dispatcher' WHERE net_id = 'dee1'")
        }
        configuration = f.configuration
    }

    /// The production routes on this world's configuration, database and clock.
    func routes() -> VandRoutes {
        buildRoutes(configuration: configuration, database: f.database, clock: f.clock)
    }

    /// The production application on this world's routes.
    func application() -> some ApplicationProtocol {
        f.application(routes())
    }

    /// The clock at hh:mm today (Sunday 2026-11-29) in New York.
    func at(_ hour: Int, _ minute: Int) -> Date {
        start.addingTimeInterval(TimeInterval((hour - 7) * 3600 + minute * 60))
    }

    func count(_ sql: SQLQuery) async throws -> Int {
        try await f.database.pool.withConnection { try $0.query(sql).first!.decode(Int.self, at: 0) }
    }

    /// The actors of the audit log's records of `action`, oldest first.
    func auditActors(_ action: String) async throws -> [String] {
        try await f.database.pool.withConnection { conn in
            try conn.query("SELECT actor FROM audit_log WHERE action = \(action) ORDER BY id").map { try $0.decode(String.self, at: 0) }
        }
    }
}
