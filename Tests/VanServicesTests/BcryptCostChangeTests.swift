import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// After `VAND_BCRYPT_COST` is raised, an account still hashed at the old cost must not answer
/// faster than an unknown net ID: its wrong password pays a check at the current cost too, and
/// its right password is hashed again at the current cost. Counted (``PasswordHasher/checksByCost``), never timed.
@Suite("Sign-in after a bcrypt cost change")
struct BcryptCostChangeTests {
    /// A fixture hashing at cost 5, with jd123's password hashed at cost 4 (set before the change).
    static func raised() async throws -> AccountFixture {
        var settings = AccountFixture.testSettings
        settings.bcryptCost = 5
        let f = try await AccountFixture(settings: settings)
        _ = try await f.activeRider("jd123")
        let old = try await PasswordHasher(cost: 4).hash("correct horse battery")
        try await f.database.pool.withConnection { _ = try RiderStore($0).rehash(try NetID("jd123"), from: try storedHash($0), to: old) }
        return f
    }

    static func storedHash(_ conn: PGConnection) throws -> String {
        try conn.query("SELECT password_hash FROM riders WHERE net_id = 'jd123'").first!.decode(String.self, at: 0)
    }

    /// The bcrypt rounds the counted checks cost (2^cost each): the work a sign-in's time shows.
    static func rounds(_ checks: [Int: Int]) -> Int {
        checks.reduce(0) { $0 + $1.value << $1.key }
    }

    static func storedCost(_ f: AccountFixture) async throws -> Int? {
        PasswordHasher.cost(of: try await f.database.pool.withConnection { try storedHash($0) })
    }

    @Test func aWrongPasswordForAnOldCostAccountPaysWhatAnUnknownNetIDPays() async throws {
        let f = try await Self.raised()
        #expect(try await Self.storedCost(f) == 4)
        let before = f.hasher.checksByCost
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "ghost1", password: "wrong password", from: .unknown)
        }
        let afterUnknown = f.hasher.checksByCost
        #expect(afterUnknown[5, default: 0] == before[5, default: 0] + 1 && afterUnknown[4, default: 0] == before[4, default: 0])
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "jd123", password: "wrong password", from: .unknown)
        }
        let afterWrong = f.hasher.checksByCost
        // The account's own check at 4 and a dummy at 4: 2^4 + 2^4 rounds, the 2^5 the unknown net ID paid.
        #expect(afterWrong[4, default: 0] == afterUnknown[4, default: 0] + 2)
        #expect(afterWrong[5, default: 0] == afterUnknown[5, default: 0])
        #expect(Self.rounds(afterWrong) - Self.rounds(afterUnknown) == Self.rounds(afterUnknown) - Self.rounds(before))
        // A wrong password changes nothing stored.
        #expect(try await Self.storedCost(f) == 4)
        await f.close()
    }

    @Test func aRightPasswordIsHashedAgainAtTheCurrentCost() async throws {
        let f = try await Self.raised()
        let login = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown)
        #expect(!login.mustChangePassword)
        #expect(try await Self.storedCost(f) == 5)
        // The new hash holds the same password; a wrong one now pays one check, at the current cost.
        _ = try await f.accounts.login(netID: "jd123", password: "correct horse battery", from: .unknown)
        let before = f.hasher.checksByCost
        await #expect(throws: AccountError.invalidCredentials) {
            try await f.accounts.login(netID: "jd123", password: "wrong password", from: .unknown)
        }
        let after = f.hasher.checksByCost
        #expect(after[5, default: 0] == before[5, default: 0] + 1 && after[4, default: 0] == before[4, default: 0])
        await f.close()
    }

    @Test func theCostIsReadFromTheHash() {
        #expect(PasswordHasher.cost(of: "$2b$12$abcdefghijklmnopqrstuu") == 12)
        #expect(PasswordHasher.cost(of: "not a hash") == nil)
        #expect(PasswordHasher(cost: 5).needsRehash("$2b$04$abcdefghijklmnopqrstuu"))
        #expect(!PasswordHasher(cost: 4).needsRehash("$2b$04$abcdefghijklmnopqrstuu"))
    }
}
