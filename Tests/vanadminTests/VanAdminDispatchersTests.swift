import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

@Suite("vanadmin dispatchers, the real binary on a real database")
struct VanAdminDispatchersTests {
    @Test func dispatchersAreAddedListedAndDisabled() async throws {
        let cli = try await CLI.make()
        #expect(try await cli.run("demo").status == 0)
        var result = try await cli.run("dispatchers", "add", "dee1", "--name", "Dee Dispatcher", "--as", "Office")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("added dispatcher dee1"))
        let password = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("temporary password: ") }?.dropFirst(20))
        #expect(password.count >= 12)
        result = try await cli.run("dispatchers", "add", "dee1", "--name", "Dee Again")
        #expect(result.status != 0 && result.stderr.contains("already has") && result.stderr.split(separator: "\n").count == 1)
        result = try await cli.run("dispatchers", "add", "dee2", "--name", "")
        #expect(result.status != 0 && result.stderr.contains("--name"))
        #expect(try await cli.run("drivers", "add", "dana1", "--name", "Dana Driver").status == 0)
        // The list holds dispatchers only; drivers have their own.
        let list = try #require(try cli.json(try await cli.run("dispatchers", "list", "--json")) as? [[String: Any]])
        #expect(list.map { $0["net_id"] as? String } == ["dee1"])
        #expect(list.first?["name"] as? String == "Dee Dispatcher" && list.first?["must_change_password"] as? Bool == true)
        #expect(try await cli.run("dispatchers", "list").stdout.contains("temporary password"))
        // A driver is not a dispatcher to disable.
        result = try await cli.run("dispatchers", "disable", "dana1")
        #expect(result.status != 0 && result.stderr.contains("no dispatcher account"))
        let database = cli.database()
        let hash = try await PasswordHasher(cost: 4).hash("correct horse battery")
        let digest = SessionToken.generate().digest
        try await database.pool.withConnection { conn in
            _ = try RiderStore(conn).setPassword(try NetID("dee1"), hash: hash)
            try conn.execute(
                """
                INSERT INTO sessions (token_sha256, net_id, created_at, expires_at, last_seen_at)
                VALUES (\(digest), 'dee1', now(), now() + interval '1 hour', now())
                """)
        }
        result = try await cli.run("dispatchers", "disable", "dee1", "--as", "Office")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("disabled dispatcher dee1"))
        let (role, disabled, sessions, audited) = try await database.pool.withConnection { conn in
            (
                try conn.query("SELECT role FROM riders WHERE net_id = 'dee1'").first!.decode(String.self, at: 0),
                try conn.query("SELECT disabled FROM riders WHERE net_id = 'dee1'").first!.decode(Bool.self, at: 0),
                try conn.query("SELECT count(*) FROM sessions WHERE net_id = 'dee1'").first!.decode(Int.self, at: 0),
                try conn.query("SELECT count(*) FROM audit_log WHERE action IN ('dispatcher.add', 'dispatcher.disable') AND actor = 'Office'").first!
                    .decode(Int.self, at: 0)
            )
        }
        #expect(role == "dispatcher" && disabled && sessions == 0 && audited == 2)
        await database.close()
        cli.cleanUp()
    }
}
