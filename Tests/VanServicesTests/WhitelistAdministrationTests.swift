import Foundation
import Synchronization
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("Whitelist administration against a real database")
struct WhitelistAdministrationTests {
    static let office = """
        net_id,name,email,until
        jd123,Jane Doe,jd@example.edu,
        ab12,Al Bo,,2026-12-31
        cc7,Cee,cee@example.edu,
        """

    @Test func importIsIdempotentAndCountsEachKindOfChange() async throws {
        let f = try await AccountFixture()
        let file = try WhitelistFile(parsing: Self.office)
        var report = try await f.whitelist.importFile(file, replace: false, invite: false, source: "office.csv", actor: "alice")
        #expect(report.added.map(\.rawValue) == ["jd123", "ab12", "cc7"])
        #expect(report.updated.isEmpty && report.removed.isEmpty && report.unchanged.isEmpty)
        let before = try await f.whitelist.list().map(\.entry)

        f.clock.advance(by: 3_600)
        report = try await f.whitelist.importFile(file, replace: false, invite: false, source: "office.csv", actor: "bob")
        #expect(report.added.isEmpty && report.updated.isEmpty && report.removed.isEmpty)
        #expect(report.unchanged.count == 3)
        #expect(try await f.whitelist.list().map(\.entry) == before)  // not even added_by/added_at moved

        let changed = try WhitelistFile(
            parsing: """
                net_id,until
                jd123,2027-01-31
                ab12,2026-12-31
                new1,
                """)
        report = try await f.whitelist.importFile(changed, replace: false, invite: false, source: "changes.csv", actor: "bob")
        #expect(report.added.map(\.rawValue) == ["new1"])
        #expect(report.updated.map(\.rawValue) == ["jd123"])
        #expect(report.unchanged.map(\.rawValue) == ["ab12"])
        let jd = try #require(try await f.whitelist.list().first { $0.entry.netID.rawValue == "jd123" })
        #expect(jd.entry.name == "Jane Doe")  // the file had no name column: left alone
        #expect(jd.entry.validUntil == (try LocalDate("2027-01-31")))
        #expect(jd.entry.addedBy == "bob")

        let imports = try await f.audit().filter { $0.action == "whitelist.import" }
        #expect(imports.map(\.actor) == ["bob", "bob", "alice"])
        await f.close()
    }

    @Test func replaceMakesTheWhitelistEqualToTheFileAndReportsWhoWasRemoved() async throws {
        let f = try await AccountFixture()
        _ = try await f.whitelist.importFile(try WhitelistFile(parsing: Self.office), replace: false, invite: false, source: "a.csv", actor: "alice")
        _ = try await f.whitelist.add(WhitelistPatch(netID: try NetID("zz9"), note: .some("by hand")), actor: "alice")
        let report = try await f.whitelist.importFile(
            try WhitelistFile(parsing: "net_id\njd123\ncc7\n"), replace: true, invite: false, source: "b.csv", actor: "bob")
        #expect(report.removed.map(\.rawValue) == ["ab12", "zz9"])
        #expect(report.unchanged.map(\.rawValue) == ["jd123", "cc7"])
        #expect(try await f.whitelist.list().map(\.entry.netID.rawValue) == ["cc7", "jd123"])
        await f.close()
    }

    @Test func importWithInviteCreatesAccountsForNewEntriesOnly() async throws {
        let f = try await AccountFixture()
        _ = try await f.riders.invite(try NetID("cc7"), actor: "alice")  // already has an account
        let written = Mutex<[Invitation]>([])
        let report = try await f.whitelist.importFile(
            try WhitelistFile(parsing: Self.office), replace: false, invite: true, source: "office.csv", actor: "alice",
            beforeCommit: { invitations in written.withLock { $0 = invitations } }
        )
        #expect(report.invited.map(\.netID.rawValue) == ["jd123", "ab12"])
        #expect(written.withLock { $0 } == report.invited)
        for invitation in report.invited {
            let login = try await f.accounts.login(netID: invitation.netID.rawValue, password: invitation.temporaryPassword, from: .unknown)
            #expect(login.mustChangePassword)
        }
        #expect(try await f.accounts.profile(try NetID("jd123")).rider.email?.rawValue == "jd@example.edu")
        // Importing again invites nobody: nothing is new.
        let again = try await f.whitelist.importFile(
            try WhitelistFile(parsing: Self.office), replace: false, invite: true, source: "office.csv", actor: "alice")
        #expect(again.invited.isEmpty)
        await f.close()
    }

    @Test func aFailureBeforeCommitLeavesNothingBehind() async throws {
        struct DiskFull: Error {}
        let f = try await AccountFixture()
        await #expect(throws: DiskFull.self) {
            try await f.whitelist.importFile(
                try WhitelistFile(parsing: Self.office), replace: false, invite: true, source: "office.csv", actor: "alice",
                beforeCommit: { _ in throw DiskFull() }
            )
        }
        #expect(try await f.whitelist.list().isEmpty)
        #expect(try await f.riders.list().isEmpty)
        #expect(try await f.audit().isEmpty)
        await f.close()
    }

    @Test func addUpdatesOnlyTheGivenFieldsAndRemoveIsAudited() async throws {
        let f = try await AccountFixture()
        let jd = try NetID("jd123")
        #expect(try await f.whitelist.add(WhitelistPatch(netID: jd, name: .some("Jane"), note: .some("cast")), actor: "alice") == .added)
        #expect(try await f.whitelist.add(WhitelistPatch(netID: jd, name: .some("Jane")), actor: "alice") == .unchanged)
        #expect(try await f.whitelist.add(WhitelistPatch(netID: jd, validUntil: .some(try LocalDate("2026-12-01"))), actor: "bob") == .updated)
        let entry = try #require(try await f.whitelist.list().first?.entry)
        let december = try LocalDate("2026-12-01")
        #expect(entry.name == "Jane" && entry.note == "cast" && entry.validUntil == december)
        try await f.whitelist.remove(jd, actor: "carol")
        await #expect(throws: AccountError.notWhitelisted(jd)) { try await f.whitelist.remove(jd, actor: "carol") }
        let log = try await f.audit().map { "\($0.actor) \($0.action) \($0.subject ?? "")" }
        #expect(log == ["carol whitelist.remove jd123", "bob whitelist.update jd123", "alice whitelist.add jd123"])
        await f.close()
    }
}
