import Foundation
import Testing
import VanDomain
@testable import VanServices
import VanPostgres

@Suite struct WhitelistFileFormatTests {
    @Test func readsQuotedFieldsCRLFAndASpreadsheetBOM() throws {
        let text = "\u{FEFF}net_id,name,note\r\njd123,\"Doe, Jane\",\"says \"\"hi\"\"\"\r\n\r\nab12,Al,\"two\nlines\"\r\n"
        let file = try WhitelistFile(parsing: text)
        #expect(file.columns == [.netID, .name, .note])
        #expect(file.rows.map(\.line) == [2, 4])
        #expect(file.rows[0].patch.name == .some("Doe, Jane"))
        #expect(file.rows[0].patch.note == .some("says \"hi\""))
        #expect(file.rows[1].patch.note == .some("two\nlines"))
    }

    @Test func reportsAnUnclosedQuoteAtItsLine() {
        let error = #expect(throws: WhitelistFileError.self) { try WhitelistFile(parsing: "net_id,name\njd123,Jane\nab12,\"open\ny\n") }
        #expect(error?.problems.first?.line == 3)
    }
}

@Suite struct WhitelistFileTests {
    @Test func parsesTheOfficeFormatInAnyColumnOrder() throws {
        let file = try WhitelistFile(
            parsing: """
                Email,NET_ID,Name,until
                jd@example.edu,JD123,Jane Doe,2026-12-31
                ,ab12,,

                """)
        #expect(file.columns == [.email, .netID, .name, .until])
        #expect(file.rows.count == 2)
        #expect(file.rows[0].line == 2)
        #expect(
            file.rows[0].patch
                == WhitelistPatch(
                    netID: try NetID("jd123"), name: .some("Jane Doe"), email: .some(try EmailAddress("jd@example.edu")),
                    note: nil, validUntil: .some(try LocalDate("2026-12-31"))
                ))
        // Present columns with empty cells clear; the absent note column is left alone.
        #expect(file.rows[1].patch == WhitelistPatch(netID: try NetID("ab12"), name: .some(nil), email: .some(nil), validUntil: .some(nil)))
    }

    @Test func reportsEveryBadLineWithItsNumberAndReason() {
        let error = #expect(throws: WhitelistFileError.self) {
            try WhitelistFile(
                parsing: """
                    net_id,name,email,until
                    jd123,Jane,jd@example.edu,2026-12-31
                    1bad,Bob,,
                    ok1,Ok,not-an-email,
                    ok2,Ok,,2026-02-30
                    jd123,Jane again,,
                    ok3,Too,few
                    """)
        }
        let lines = error?.problems.map(\.line)
        #expect(lines == [3, 4, 5, 6, 7])
        let reasons = error?.problems.map(\.reason) ?? []
        #expect(reasons[0].hasPrefix("net_id:"))
        #expect(reasons[1].hasPrefix("email:"))
        #expect(reasons[2].hasPrefix("until:"))
        #expect(reasons[3].contains("already appears on line 2"))
        #expect(reasons[4].contains("has 3 fields but the header has 4"))
        #expect(error?.description.hasPrefix("line 3: net_id:") == true)
    }

    @Test func refusesAHeaderWithoutNetIDOrWithUnknownColumns() {
        let missing = #expect(throws: WhitelistFileError.self) { try WhitelistFile(parsing: "name,email\nJane,jd@example.edu\n") }
        #expect(missing?.problems.first?.reason.contains("no net_id column") == true)
        let unknown = #expect(throws: WhitelistFileError.self) { try WhitelistFile(parsing: "net_id,phone\njd123,555\n") }
        #expect(unknown?.problems.first?.reason.contains("unknown column \"phone\"") == true)
        let empty = #expect(throws: WhitelistFileError.self) { try WhitelistFile(parsing: "") }
        #expect(empty?.problems.first?.line == 1)
    }
}

@Suite struct SecretsTests {
    @Test func tokensAre32RandomBytesInBase64URL() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let token = SessionToken.generate()
            #expect(token.rawValue.utf8.count == 43)
            #expect(token.rawValue.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(SessionToken(token.rawValue) == token)
            #expect(token.digest.count == 32)
            seen.insert(token.rawValue)
        }
        #expect(seen.count == 200)
    }

    @Test func tokensNeverPrintThemselves() {
        let token = SessionToken.generate()
        #expect(!"\(token)".contains(token.rawValue))
        #expect(!String(reflecting: token).contains(token.rawValue))
    }

    @Test func malformedTokensAreRefusedBeforeAnyLookup() {
        #expect(SessionToken("short") == nil)
        #expect(SessionToken(String(repeating: "a", count: 42) + "=") == nil)
        #expect(SessionToken(String(repeating: "a", count: 44)) == nil)
    }

    @Test func temporaryPasswordsAreLongRandomAndPassThePolicy() throws {
        let netID = try NetID("jd123")
        var seen = Set<String>()
        for _ in 0..<200 {
            let password = TemporaryPassword.generate()
            #expect(password.count == 19)
            try PasswordPolicy.check(password, netID: netID)
            seen.insert(password)
        }
        #expect(seen.count == 200)
    }

    @Test func hashingRunsOffTheCallerAndVerifies() async throws {
        let hasher = PasswordHasher(cost: 4)
        let hash = try await hasher.hash("correct horse battery")
        #expect(hash.hasPrefix("$2b$04$"))
        #expect(hash.count == 60)
        #expect(try await hasher.verify("correct horse battery", against: hash))
        #expect(try await !hasher.verify("wrong horse battery", against: hash))
        #expect(try await !hasher.verify("correct horse battery", against: nil))
    }

    @Test func throttlingBlocksOnTheFifthFailureAndDoublesUpToTheCap() {
        let limit = LoginThrottlePolicy().perAccountAndAddress
        let now = Date(timeIntervalSince1970: 0)
        #expect(limit.blockedUntil(failures: 4, now: now) == nil)
        #expect((5...10).map { limit.blockedUntil(failures: $0, now: now)!.timeIntervalSince(now) } == [60, 120, 240, 480, 900, 900])
        #expect(LoginThrottlePolicy().perAddress.blockedUntil(failures: 29, now: now) == nil)
        #expect(limit.blockedUntil(failures: 10_000, now: now) == now.addingTimeInterval(900))
    }

    @Test func settingsComeFromTheEnvironmentAndBadValuesNameTheVariable() throws {
        let settings = try AccountSettings.fromEnvironment(["VAND_BCRYPT_COST": "4", "VAND_SESSION_IDLE_DAYS": "2", "VAND_TEMP_PASSWORD_DAYS": "1.5"])
        #expect(settings.bcryptCost == 4)
        #expect(settings.sessionIdleTimeout == 2 * 86_400)
        #expect(settings.temporaryPasswordLifetime == 1.5 * 86_400)
        #expect(try AccountSettings.fromEnvironment([:]) == AccountSettings())
        let error = #expect(throws: SettingError.self) { try AccountSettings.fromEnvironment(["VAND_BCRYPT_COST": "3"]) }
        #expect(error?.variable == "VAND_BCRYPT_COST")
    }
}
