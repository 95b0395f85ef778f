import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("Accounts against a real database")
struct AccountServiceTests {
    @Test func inviteGivesATemporaryPasswordThatMustBeChanged() async throws {
        let f = try await AccountFixture()
        let jd = try NetID("jd123")
        let invitation = try await f.riders.invite(jd, actor: "alice")
        #expect(invitation.expiresAt == f.clock.now.addingTimeInterval(7 * 86_400))

        let login = try await f.accounts.login(netID: "JD123", password: invitation.temporaryPassword, from: .unknown)
        #expect(login.mustChangePassword)
        #expect(login.expiresAt == invitation.expiresAt)  // capped by the temporary password's end
        let session = try await f.accounts.authenticate(token: login.token.rawValue)
        #expect(session.mustChangePassword)

        // The new password must follow the rules and differ from the temporary one.
        let weak = await #expect(throws: AccountError.self) {
            try await f.accounts.changePassword(session, current: invitation.temporaryPassword, new: "jd123", from: .unknown)
        }
        guard case .invalid(let problems) = weak else { Issue.record("expected a validation error, got \(String(describing: weak))"); return }
        #expect(problems.map(\.field) == ["new"])
        await #expect(throws: AccountError.self) {
            try await f.accounts.changePassword(session, current: invitation.temporaryPassword, new: invitation.temporaryPassword, from: .unknown)
        }
        try await f.accounts.changePassword(session, current: invitation.temporaryPassword, new: "correct horse battery", from: .unknown)
        let after = try await f.accounts.authenticate(token: login.token.rawValue)
        #expect(!after.mustChangePassword)
        #expect(after.expiresAt == f.clock.now.addingTimeInterval(30 * 86_400))

        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "jd123", password: invitation.temporaryPassword, from: .unknown)
        }
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown)
        await #expect(throws: AccountError.riderExists(jd)) { try await f.riders.invite(jd, actor: "alice") }
        await f.close()
    }

    @Test func temporaryPasswordsExpire() async throws {
        let f = try await AccountFixture()
        let invitation = try await f.riders.invite(try NetID("jd123"), actor: "alice")
        let early = try await f.accounts.login(netID: "jd123", password: invitation.temporaryPassword, from: .unknown)
        f.clock.advance(by: 7 * 86_400 - 1)
        _ = try await f.accounts.authenticate(token: early.token.rawValue)
        f.clock.advance(by: 1)
        // The password and the session it opened both end.
        await #expect(throws: AccountError.temporaryPasswordExpired) {
            try await f.accounts.login(netID: "jd123", password: invitation.temporaryPassword, from: .unknown)
        }
        await #expect(throws: AccountError.notAuthenticated) { try await f.accounts.authenticate(token: early.token.rawValue) }
        // A wrong password still gets the generic answer: expiry is only revealed to the right password.
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "jd123", password: "not the password", from: .unknown)
        }

        let reset = try await f.riders.resetPassword(try NetID("jd123"), actor: "bob")
        let login = try await f.accounts.login(netID: "jd123", password: reset.temporaryPassword, from: .unknown)
        #expect(login.mustChangePassword)
        await f.close()
    }

    static let riderPhone = ClientAddress("198.51.100.7")
    static let attacker = ClientAddress("203.0.113.66")

    /// The attack issue 16 found: five guesses from anywhere locked the rider out. Now the
    /// guesser's address backs off ever longer, and the rider, from their own, signs in.
    @Test func aGuesserElsewhereCannotLockTheRiderOut() async throws {
        let f = try await AccountFixture()
        _ = try await f.activeRider("jd123")
        for attempt in 1...4 {
            await #expect(throws: AccountError.invalidCredentials, "attempt \(attempt)") {
                try await f.accounts.login(netID: "jd123", password: "guess \(attempt)", from: Self.attacker)
            }
        }
        await #expect(throws: AccountError.lockedOut(until: f.clock.now.addingTimeInterval(60))) {
            try await f.accounts.login(netID: "jd123", password: "guess 5", from: Self.attacker)
        }
        // Blocked means refused before bcrypt, even the right password: the guesser learns nothing.
        await #expect(throws: AccountError.lockedOut(until: f.clock.now.addingTimeInterval(60))) {
            try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: Self.attacker)
        }
        // The rider, from their phone, at once.
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: Self.riderPhone)
        // Each further guess doubles the wait: 2, 4, 8, then 15 minutes at most.
        for expected in [120.0, 240, 480, 900, 900] {
            f.clock.advance(by: 15 * 60)
            await #expect(throws: AccountError.lockedOut(until: f.clock.now.addingTimeInterval(expected))) {
                try await f.accounts.login(netID: "jd123", password: "guess", from: Self.attacker)
            }
        }
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: Self.riderPhone)
        // An hour without failures forgets the guesser's key.
        f.clock.advance(by: 3_600)
        await #expect(throws: AccountError.invalidCredentials) { try await f.accounts.login(netID: "jd123", password: "guess", from: Self.attacker) }
        await f.close()
    }

    /// An honest rider: a few typos, then the right password; the slate is clean afterwards.
    @Test func aFewTyposThenSuccessStartAfresh() async throws {
        let f = try await AccountFixture()
        _ = try await f.activeRider("jd123")
        for _ in 1...4 {
            await #expect(throws: AccountError.invalidCredentials) {
                try await f.accounts.login(netID: "jd123", password: "correct horse batery", from: Self.riderPhone)
            }
        }
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: Self.riderPhone)
        // Four more typos later do not block: success forgot the earlier ones.
        for _ in 1...4 {
            await #expect(throws: AccountError.invalidCredentials) {
                try await f.accounts.login(netID: "jd123", password: "correct horse batery", from: Self.riderPhone)
            }
        }
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: Self.riderPhone)
        // Five typos: a minute's wait, then in.
        for _ in 1...4 { _ = try? await f.accounts.login(netID: "jd123", password: "typo", from: Self.riderPhone) }
        await #expect(throws: AccountError.lockedOut(until: f.clock.now.addingTimeInterval(60))) {
            try await f.accounts.login(netID: "jd123", password: "typo", from: Self.riderPhone)
        }
        f.clock.advance(by: 60)
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: Self.riderPhone)
        await f.close()
    }

    /// One address guessing across many net IDs is slowed down as a whole; signing in to
    /// one's own account from it does not buy more guesses.
    @Test func oneAddressSprayingAccountsIsThrottled() async throws {
        let f = try await AccountFixture()
        _ = try await f.activeRider("mallory1")
        for index in 1...29 {
            await #expect(throws: AccountError.invalidCredentials) {
                try await f.accounts.login(netID: "victim\(index)", password: "Password1!", from: Self.attacker)
            }
            if index == 15 { _ = try await f.accounts.login(netID: "mallory1", password: "correct horse battery", from: Self.attacker) }
        }
        await #expect(throws: AccountError.lockedOut(until: f.clock.now.addingTimeInterval(60))) {
            try await f.accounts.login(netID: "victim30", password: "Password1!", from: Self.attacker)
        }
        await #expect(throws: AccountError.lockedOut(until: f.clock.now.addingTimeInterval(60))) {
            try await f.accounts.login(netID: "victim31", password: "Password1!", from: Self.attacker)
        }
        // Other addresses are untouched.
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "victim31", password: "Password1!", from: Self.riderPhone)
        }
        await f.close()
    }

    @Test func unknownNetIDsAnswerLikeWrongPasswordsAndBlockAlike() async throws {
        let f = try await AccountFixture()
        _ = try await f.activeRider("jd123")
        for _ in 1...4 {
            await #expect(throws: AccountError.invalidCredentials) {
                try await f.accounts.login(netID: "nobody1", password: "whatever pass", from: Self.attacker)
            }
        }
        await #expect(throws: AccountError.lockedOut(until: f.clock.now.addingTimeInterval(60))) {
            try await f.accounts.login(netID: "nobody1", password: "whatever pass", from: Self.attacker)
        }
        await f.close()
    }

    /// The count is the database's: 40 wrong passwords at once from one address (half for
    /// one net ID) are all counted, however they interleave: no lost update lets one escape.
    @Test func concurrentFailuresAreAllCounted() async throws {
        var settings = AccountFixture.testSettings
        settings.throttle.perAccountAndAddress.blockingFailure = 1_000
        settings.throttle.perAddress.blockingFailure = 1_000
        let f = try await AccountFixture(settings: settings)
        _ = try await f.activeRider("jd123")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    _ = try? await f.accounts.login(netID: index % 2 == 0 ? "jd123" : "ghost\(index)", password: "wrong", from: Self.attacker)
                }
            }
        }
        let counts = try await f.database.pool.withConnection { conn in
            try conn.query(
                "SELECT net_id, failures FROM login_throttle WHERE address = \(Self.attacker.rawValue) AND net_id IN ('', 'jd123') ORDER BY net_id"
            )
            .map { try $0.decode(Int.self, at: 1) }
        }
        #expect(counts == [40, 20])
        await f.close()
    }

    @Test func unknownNetIDsCostAsMuchBcryptAsWrongPasswords() async throws {
        var settings = AccountFixture.testSettings
        settings.bcryptCost = 5
        let f = try await AccountFixture(settings: settings)
        _ = try await f.activeRider("jd123")
        let before = f.hasher.checksByCost
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "ghost1", password: "wrong password", from: .unknown)
        }
        let afterUnknown = f.hasher.checksByCost
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "jd123", password: "wrong password", from: .unknown)
        }
        let afterWrong = f.hasher.checksByCost
        // Each failure paid exactly one bcrypt check at the configured cost, and no other: an
        // unknown net ID costs what a wrong password costs (counted, not timed).
        #expect(afterUnknown.filter { $0.key != 5 } == before.filter { $0.key != 5 })
        #expect(afterUnknown[5, default: 0] == before[5, default: 0] + 1)
        #expect(afterWrong.filter { $0.key != 5 } == before.filter { $0.key != 5 })
        #expect(afterWrong[5, default: 0] == afterUnknown[5, default: 0] + 1)
        await f.close()
    }

    @Test func disabledRidersCannotLogInAndLoseTheirSessions() async throws {
        let f = try await AccountFixture()
        let token = try await f.activeRider("jd123")
        let second = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown)
        let jd = try NetID("jd123")
        #expect(try await f.riders.disable(jd, reason: "moved away", actor: "alice") == 2)
        await #expect(throws: AccountError.notAuthenticated) { try await f.accounts.authenticate(token: token) }
        await #expect(throws: AccountError.notAuthenticated) { try await f.accounts.authenticate(token: second.token.rawValue) }
        await #expect(throws: AccountError.disabled) { try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown) }
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "jd123", password: "wrong password", from: .unknown)
        }
        try await f.riders.enable(jd, actor: "alice")
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown)
        await #expect(throws: AccountError.noSuchRider(try NetID("nobody"))) { try await f.riders.disable(try NetID("nobody"), actor: "alice") }
        let actions = try await f.audit().map { "\($0.actor) \($0.action) \($0.subject ?? "")" }
        #expect(actions.contains("alice rider.disable jd123"))
        #expect(actions.contains("alice rider.enable jd123"))
        await f.close()
    }

    @Test func logoutAndPasswordChangeRevokeSessions() async throws {
        let f = try await AccountFixture()
        let first = try await f.activeRider("jd123")
        let second = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown).token.rawValue
        let third = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown).token.rawValue

        try await f.accounts.logout(try await f.accounts.authenticate(token: third))
        await #expect(throws: AccountError.notAuthenticated) { try await f.accounts.authenticate(token: third) }

        let session = try await f.accounts.authenticate(token: first)
        await #expect(throws: AccountError.invalid([ValidationError(field: "current", reason: "is not your current password")])) {
            try await f.accounts.changePassword(session, current: "not it at all", new: "a brand new passphrase", from: .unknown)
        }
        try await f.accounts.changePassword(session, current: "correct horse battery", new: "a brand new passphrase", from: .unknown)
        _ = try await f.accounts.authenticate(token: first)  // the session that changed it stays
        await #expect(throws: AccountError.notAuthenticated) { try await f.accounts.authenticate(token: second) }
        await f.close()
    }

    @Test func sessionsExpireAfterIdleDaysAndUseKeepsThemAlive() async throws {
        let f = try await AccountFixture()
        let token = try await f.activeRider("jd123")
        f.clock.advance(by: 29 * 86_400)
        _ = try await f.accounts.authenticate(token: token)
        f.clock.advance(by: 29 * 86_400)
        _ = try await f.accounts.authenticate(token: token)
        f.clock.advance(by: 30 * 86_400)
        await #expect(throws: AccountError.notAuthenticated) { try await f.accounts.authenticate(token: token) }
        await #expect(throws: AccountError.notAuthenticated) { try await f.accounts.authenticate(token: "not-a-token") }
        await f.close()
    }

    @Test func useWritesTheSessionAtMostOnceAMinute() async throws {
        let f = try await AccountFixture()
        let token = try await f.activeRider("jd123")
        func stored() async throws -> (lastSeen: Date, expires: Date, xmin: String) {
            try await f.database.pool.withConnection { connection in
                let row = try connection.query("SELECT last_seen_at, expires_at, xmin::text AS x FROM sessions WHERE net_id = 'jd123'").first!
                return (try row.decode(Date.self, "last_seen_at"), try row.decode(Date.self, "expires_at"), try row.decode(String.self, "x"))
            }
        }
        f.clock.advance(by: 60)
        let touched = try await f.accounts.authenticate(token: token)
        let first = try await stored()
        #expect(first.lastSeen == f.clock.now)
        #expect(touched.expiresAt == f.clock.now.addingTimeInterval(30 * 86_400))
        #expect(first.expires == touched.expiresAt)
        // Within the minute: the row is only read (same tuple version), the answer is the stored expiry.
        f.clock.advance(by: 59)
        let again = try await f.accounts.authenticate(token: token)
        let second = try await stored()
        #expect(second.xmin == first.xmin)
        #expect(second.lastSeen == first.lastSeen)
        #expect(again.expiresAt == first.expires)
        // A minute after the last write it slides again.
        f.clock.advance(by: 1)
        let later = try await f.accounts.authenticate(token: token)
        let third = try await stored()
        #expect(third.lastSeen == f.clock.now)
        #expect(later.expiresAt == f.clock.now.addingTimeInterval(30 * 86_400))
        await f.close()
    }

    /// The ride list's statement checks the session as `authenticate` does: same answers, the
    /// expiry slid at most once a minute, no session for an unknown or expired token.
    @Test func listingRidesChecksTheSessionAsAuthenticateDoes() async throws {
        let f = try await AccountFixture()
        let token = try await f.activeRider("jd123")
        let rides = RiderRides(pool: f.database.pool)
        func stored() async throws -> (lastSeen: Date, expires: Date) {
            try await f.database.pool.withConnection { connection in
                let row = try connection.query("SELECT last_seen_at, expires_at FROM sessions WHERE net_id = 'jd123'").first!
                return (try row.decode(Date.self, "last_seen_at"), try row.decode(Date.self, "expires_at"))
            }
        }
        f.clock.advance(by: 60)
        let listed = try #require(try await rides.list(try f.accounts.sessionCheck(token: token), scope: .upcoming))
        #expect(listed.session.netID == (try NetID("jd123")))
        #expect(!listed.session.mustChangePassword)
        #expect(listed.session.expiresAt == f.clock.now.addingTimeInterval(30 * 86_400))
        #expect(listed.page.rides.isEmpty && listed.page.next == nil)
        #expect(try await stored().lastSeen == f.clock.now)
        // Within the minute: not written again; the answer is the stored expiry, as authenticate's.
        f.clock.advance(by: 30)
        let again = try #require(try await rides.list(try f.accounts.sessionCheck(token: token), scope: .past))
        #expect(again.session == (try await f.accounts.authenticate(token: token)))
        #expect(try await stored().lastSeen == f.clock.now.addingTimeInterval(-30))
        // Unknown and expired tokens have no session.
        #expect(try await rides.list(try f.accounts.sessionCheck(token: String(repeating: "A", count: 43)), scope: .upcoming) == nil)
        f.clock.advance(by: 31 * 86_400)
        #expect(try await rides.list(try f.accounts.sessionCheck(token: token), scope: .upcoming) == nil)
        #expect(throws: AccountError.notAuthenticated) { try f.accounts.sessionCheck(token: "not-a-token") }
        await f.close()
    }

    @Test func noRawSecretIsStoredAnywhere() async throws {
        let f = try await AccountFixture()
        let invitation = try await f.riders.invite(try NetID("jd123"), actor: "alice")
        let temporary = try await f.accounts.login(netID: "jd123", password: invitation.temporaryPassword, from: .unknown)
        try await f.accounts.changePassword(
            try await f.accounts.authenticate(token: temporary.token.rawValue),
            current: invitation.temporaryPassword, new: "correct horse battery", from: .unknown)
        let full = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown)
        _ = try? await f.accounts.login(netID: "jd123", password: "a wrong guess here", from: .unknown)
        let reset = try await f.riders.resetPassword(try NetID("jd123"), actor: "bob")
        let rows = try await f.everyRow()
        #expect(rows.contains { $0.contains("jd123") })
        for secret in [
            invitation.temporaryPassword, temporary.token.rawValue, full.token.rawValue, "correct horse battery",
            "a wrong guess here", reset.temporaryPassword,
        ] {
            #expect(!rows.contains { $0.contains(secret) }, "a table holds a raw secret")
        }
        await f.close()
    }

    @Test func whitelistEntriesExpireAfterTheirLastDayInTheServiceTimeZone() async throws {
        let f = try await AccountFixture()
        let jd = try NetID("jd123")
        // The clock starts on 2026-11-29 at 07:00 in New York.
        #expect(try await f.whitelist.add(WhitelistPatch(netID: jd, validUntil: .some(try LocalDate("2026-11-30"))), actor: "alice") == .added)
        #expect(try await f.accounts.eligibility(jd) == Eligibility(isEligible: true, until: try LocalDate("2026-11-30")))
        f.clock.advance(by: 86_400 + 16 * 3_600)  // 2026-11-30 23:00 in New York (04:00 UTC on Dec 1)
        #expect(try await f.accounts.eligibility(jd).isEligible)
        f.clock.advance(by: 3_600)  // midnight
        #expect(try await f.accounts.eligibility(jd) == Eligibility(isEligible: false, until: try LocalDate("2026-11-30")))
        #expect(try await f.accounts.eligibility(try NetID("nobody")) == Eligibility(isEligible: false, until: nil))
        await f.close()
    }

    @Test func profileShowsWhitelistStatusAndContactChangesAreKept() async throws {
        let f = try await AccountFixture()
        let jd = try NetID("jd123")
        _ = try await f.whitelist.add(
            WhitelistPatch(netID: jd, name: .some("Jane Doe"), email: .some(try EmailAddress("jd@example.edu"))), actor: "alice")
        _ = try await f.activeRider("jd123")
        var profile = try await f.accounts.profile(jd)
        #expect(profile.rider.name == "Jane Doe")  // copied from the whitelist at invitation
        #expect(profile.rider.email?.rawValue == "jd@example.edu")
        #expect(profile.eligibility == Eligibility(isEligible: true, until: nil))
        profile = try await f.accounts.updateContact(jd, phone: .some(try PhoneNumber("607-555-0100")), email: nil)
        #expect(profile.rider.phone?.rawValue == "6075550100")
        #expect(profile.rider.email?.rawValue == "jd@example.edu")
        profile = try await f.accounts.updateContact(jd, phone: nil, email: .some(nil))
        #expect(profile.rider.phone?.rawValue == "6075550100")
        #expect(profile.rider.email == nil)
        await f.close()
    }
}

extension AccountService {
    /// Whether `netID` may book today, read as the booking path reads it.
    func eligibility(_ netID: NetID) async throws -> Eligibility {
        let today = self.today
        return try await pool.withConnection { try WhitelistStore($0).eligibility(netID, today: today) }
    }
}
