import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

@Suite("vanadmin drivers, vans token and shifts, the real binary on a real database")
struct VanAdminRoadTests {
    @Test func driversAreAddedListedAndDisabled() async throws {
        let cli = try await CLI.make()
        #expect(try await cli.run("demo").status == 0)
        var result = try await cli.run("drivers", "add", "dee1", "--name", "Dee River", "--phone", "607-555-0199", "--as", "Dana")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("added driver dee1"))
        let password = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("temporary password: ") }?.dropFirst(20))
        #expect(password.count >= 12)
        result = try await cli.run("drivers", "add", "dee1", "--name", "Dee Again")
        #expect(result.status != 0 && result.stderr.contains("already has"))
        result = try await cli.run("drivers", "add", "dee2", "--name", "  ")
        #expect(result.status != 0 && result.stderr.contains("--name"))
        result = try await cli.run("drivers", "add", "dee3", "--name", "Dee", "--phone", "call me")
        #expect(result.status != 0 && result.stderr.contains("--phone"))
        let list = try #require(try cli.json(try await cli.run("drivers", "list", "--json")) as? [[String: Any]])
        #expect(list.map { $0["net_id"] as? String } == ["dee1"])
        #expect(list.first?["phone"] as? String == "6075550199" && list.first?["must_change_password"] as? Bool == true)
        let database = cli.database()
        let (role, audited) = try await database.pool.withConnection { conn in
            (
                try conn.query("SELECT role FROM riders WHERE net_id = 'dee1'").first!.decode(String.self, at: 0),
                try conn.query("SELECT count(*) FROM audit_log WHERE action = 'driver.add' AND actor = 'Dana'").first!.decode(Int.self, at: 0)
            )
        }
        #expect(role == "driver" && audited == 1)
        // A rider account is not a driver's to disable here.
        try await database.pool.withConnection { try $0.execute("INSERT INTO riders (net_id, password_hash) VALUES ('ann1', 'x')") }
        result = try await cli.run("drivers", "disable", "ann1")
        #expect(result.status != 0 && result.stderr.contains("no driver account"))
        // Disabling a driver on shift ends the shift too, by the dispatcher.
        let road = Road(pool: database.pool, clock: SystemTimeSource(), timeZone: TimeZone(identifier: "America/New_York")!)
        let van = try await database.pool.withConnection { try $0.query("SELECT id FROM vans WHERE name = 'Van 1'").first!.decode(Int64.self, at: 0) }
        _ = try await road.shifts.start(driver: try NetID("dee1"), vanID: van)
        result = try await cli.run("drivers", "disable", "dee1", "--as", "Dana")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("disabled driver dee1; ended her shift on Van 1"))
        let (disabled, endedBy) = try await database.pool.withConnection { conn in
            (
                try conn.query("SELECT disabled FROM riders WHERE net_id = 'dee1'").first!.decode(Bool.self, at: 0),
                try conn.query("SELECT ended_by FROM shifts WHERE driver_net_id = 'dee1'").first!.decode(String?.self, at: 0)
            )
        }
        #expect(disabled && endedBy == "Dana")
        await database.close()
        cli.cleanUp()
    }

    @Test func aVansTrackerTokenIsPrintedOnceAndOnlyItsDigestKept() async throws {
        let cli = try await CLI.make()
        #expect(try await cli.run("demo").status == 0)
        var result = try await cli.run("vans", "token", "Van 1", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let token = try #require((try cli.json(result) as? [String: Any])?["token"] as? String)
        #expect(SessionToken(token) != nil)
        let database = cli.database()
        let stored = try await database.pool.withConnection { conn in
            try conn.query("SELECT count(*) FROM van_tracker_tokens WHERE token_sha256 = \(SessionToken(token)!.digest)").first!.decode(
                Int.self, at: 0)
        }
        #expect(stored == 1)
        result = try await cli.run("vans", "token", "Van 99")
        #expect(result.status != 0 && result.stderr.contains("no active van Van 99"))
        await database.close()
        cli.cleanUp()
    }

    @Test func aDispatcherEndsAVansShiftAudited() async throws {
        let cli = try await CLI.make()
        #expect(try await cli.run("demo").status == 0)
        #expect(try await cli.run("drivers", "add", "dee1", "--name", "Dee River").status == 0)
        let database = cli.database()
        let road = Road(pool: database.pool, clock: SystemTimeSource(), timeZone: TimeZone(identifier: "America/New_York")!)
        let van = try await database.pool.withConnection { try $0.query("SELECT id FROM vans WHERE name = 'Van 1'").first!.decode(Int64.self, at: 0) }
        _ = try await road.shifts.start(driver: try NetID("dee1"), vanID: van)
        var result = try await cli.run("shifts", "list")
        #expect(result.status == 0 && result.stdout.contains("Van 1") && result.stdout.contains("dee1"))
        result = try await cli.run("shifts", "end", "Van 1", "--as", "Dana")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ended the shift of dee1 on Van 1"))
        result = try await cli.run("shifts", "end", "Van 1")
        #expect(result.status != 0 && result.stderr.contains("Van 1 has no open shift"))
        let (ended, audited) = try await database.pool.withConnection { conn in
            (
                try conn.query("SELECT ended_by FROM shifts").first!.decode(String.self, at: 0),
                try conn.query("SELECT count(*) FROM audit_log WHERE action = 'shift.end' AND actor = 'Dana'").first!.decode(Int.self, at: 0)
            )
        }
        #expect(ended == "Dana" && audited == 1)
        await database.close()
        cli.cleanUp()
    }
}
