import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

@Suite("vanadmin whitelist and riders, the real binary on a real database")
struct VanAdminAccountsTests {
    static let office = """
        net_id,name,email,until
        jd123,Jane Doe,jd@example.edu,
        ab12,"Bo, Al",,2026-12-31
        cc7,Cee,cee@example.edu,
        """

    @Test func aBadFileImportsNothingAndNamesEveryBadLine() async throws {
        let cli = try await CLI.make()
        let file = try cli.write(
            "bad.csv",
            """
            net_id,name,email,until
            jd123,Jane Doe,jd@example.edu,
            9zz,Bad,,
            ok1,Ok,not-an-email,
            ok2,Ok,,31/12/2026
            """)
        let result = try await cli.run("whitelist", "import", file)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("bad.csv:3: net_id: must start with a letter a-z, got \"9zz\"") })
        #expect(lines.contains { $0.contains("bad.csv:4: email:") })
        #expect(lines.contains { $0.contains("bad.csv:5: until:") })
        #expect(result.stderr.contains("3 bad lines; nothing was imported"))
        let list = try await cli.run("whitelist", "list", "--json")
        #expect(list.status == 0)
        #expect((try cli.json(list) as? [Any])?.isEmpty == true)
        cli.cleanUp()
    }

    @Test func importCountsIsIdempotentAndReplaceReportsRemovals() async throws {
        let cli = try await CLI.make()
        let file = try cli.write("office.csv", Self.office)
        var result = try await cli.run("whitelist", "import", file, "--as", "Alice")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("added 3, updated 0, removed 0, unchanged 0"))

        result = try await cli.run("whitelist", "import", file)
        #expect(result.stdout.contains("added 0, updated 0, removed 0, unchanged 3"))

        let smaller = try cli.write("smaller.csv", "net_id,name\njd123,Jane Q. Doe\n")
        result = try await cli.run("whitelist", "import", smaller, "--replace", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try cli.json(result) as? [String: Any])
        #expect(summary["updated"] as? [String] == ["jd123"])
        #expect(summary["removed"] as? [String] == ["ab12", "cc7"])
        #expect(summary["unchanged"] as? Int == 0)

        let list = try #require(try cli.json(try await cli.run("whitelist", "list", "--json")) as? [[String: Any]])
        #expect(list.map { $0["net_id"] as? String } == ["jd123"])
        #expect(list.first?["name"] as? String == "Jane Q. Doe")
        #expect(list.first?["email"] as? String == "jd@example.edu")

        let table = try await cli.run("whitelist", "list")
        #expect(table.stdout.hasPrefix("NET ID"))
        #expect(table.stdout.contains("jd123"))

        let db = cli.database()
        let audit = try await db.pool.withConnection { try AuditLog.recent($0) }
        #expect(audit.filter { $0.action == "whitelist.import" }.map(\.actor) == ["dispatcher-login", "dispatcher-login", "Alice"])
        await db.close()
        cli.cleanUp()
    }

    @Test func importWithInviteWritesAPrivateFileOfWorkingPasswords() async throws {
        let cli = try await CLI.make()
        let file = try cli.write("office.csv", Self.office)
        let out = cli.directory.appendingPathComponent("invites.csv").path
        let result = try await cli.run("whitelist", "import", file, "--invite", out, environment: ["VAND_TEMP_PASSWORD_DAYS": "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("invited 3"))
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "net_id,temporary_password")
        #expect(lines.count == 4)
        // The passwords are not printed, only written to the file.
        for line in lines.dropFirst() { #expect(!result.stdout.contains(String(line.split(separator: ",")[1]))) }

        let db = cli.database()
        let clock = ManualClock(Date())
        var settings = AccountSettings()
        settings.bcryptCost = 4
        let accounts = AccountService(pool: db.pool, hasher: PasswordHasher(cost: 4), settings: settings, clock: clock, timeZone: .current)
        let parts = lines[1].split(separator: ",").map(String.init)
        let login = try await accounts.login(netID: parts[0], password: parts[1], from: .unknown)
        #expect(login.mustChangePassword)
        clock.advance(by: 2 * 86_400 + 60)  // VAND_TEMP_PASSWORD_DAYS=2 was honoured
        await #expect(throws: AccountError.temporaryPasswordExpired) { try await accounts.login(netID: parts[0], password: parts[1], from: .unknown) }
        await db.close()

        // The file is never overwritten, and a refused import changes nothing.
        let again = try await cli.run("whitelist", "import", file, "--invite", out)
        #expect(again.status != 0)
        #expect(again.stderr.contains("already exists"))
        cli.cleanUp()
    }

    @Test func riderCommandsAreAuditedWithTheActor() async throws {
        let cli = try await CLI.make()
        var result = try await cli.run("riders", "invite", "JD123", "--as", "Alice", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let invite = try #require(try cli.json(result) as? [String: Any])
        let password = try #require(invite["temporary_password"] as? String)
        #expect(invite["net_id"] as? String == "jd123")

        result = try await cli.run("riders", "invite", "jd123")
        #expect(result.status == 1)
        #expect(result.stderr.contains("already has a rider account"))
        #expect(result.stderr.split(separator: "\n").count == 1)

        result = try await cli.run("riders", "reset-password", "jd123", "--as", "Bob")
        #expect(result.status == 0)
        #expect(result.stdout.contains("temporary password: "))
        #expect(!result.stdout.contains(password))

        result = try await cli.run("riders", "disable", "jd123", "--reason", "graduated")
        #expect(result.stdout.contains("disabled jd123"))
        result = try await cli.run("riders", "list", "--json")
        let riders = try #require(try cli.json(result) as? [[String: Any]])
        #expect(riders.first?["status"] as? String == "disabled")
        result = try await cli.run("riders", "enable", "jd123")
        #expect(result.status == 0)
        result = try await cli.run("riders", "list")
        #expect(result.stdout.contains("invited"))

        result = try await cli.run("riders", "disable", "nobody")
        #expect(result.status == 1)
        #expect(result.stderr.contains("nobody has no rider account"))
        result = try await cli.run("riders", "invite", "9bad")
        #expect(result.status != 0)
        #expect(result.stderr.contains("net_id"))

        let db = cli.database()
        let audit = try await db.pool.withConnection { try AuditLog.recent($0) }.map { "\($0.actor) \($0.action) \($0.subject ?? "")" }
        #expect(
            audit == [
                "dispatcher-login rider.enable jd123", "dispatcher-login rider.disable jd123",
                "Bob rider.reset_password jd123", "Alice rider.invite jd123",
            ])
        let rows = try await db.pool.withConnection {
            try $0.query("SELECT row_to_json(r)::text AS j FROM riders r").map { try $0.decode(String.self, "j") }
        }
        #expect(!rows.joined().contains(password))
        await db.close()
        cli.cleanUp()
    }

    @Test func whitelistAddAndRemoveByHand() async throws {
        let cli = try await CLI.make()
        var result = try await cli.run("whitelist", "add", "jd123", "--name", "Jane", "--until", "2026-12-31", "--note", "broken leg")
        #expect(result.stdout.contains("added jd123"))
        result = try await cli.run("whitelist", "add", "jd123", "--until", "none")
        #expect(result.stdout.contains("updated jd123"))
        result = try await cli.run("whitelist", "add", "jd123", "--until", "2026-13-01")
        #expect(result.status != 0)
        #expect(result.stderr.contains("--until"))
        let list = try #require(try cli.json(try await cli.run("whitelist", "list", "--json")) as? [[String: Any]])
        #expect(list.first?["valid_until"] is NSNull || list.first?["valid_until"] == nil)
        #expect(list.first?["note"] as? String == "broken leg")
        result = try await cli.run("whitelist", "remove", "jd123")
        #expect(result.stdout.contains("removed jd123"))
        result = try await cli.run("whitelist", "remove", "jd123")
        #expect(result.status == 1)
        #expect(result.stderr.contains("not on the whitelist"))
        cli.cleanUp()
    }
}
