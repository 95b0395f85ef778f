import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct PasswordPolicyTests {
    let netID = try! NetID("jd123")

    @Test(arguments: ["correct horse", "0123456789", "ünïcødé-pässwörd", String(repeating: "a", count: 72)])
    func acceptsGoodPasswords(_ password: String) throws {
        try PasswordPolicy.check(password, netID: netID)
    }

    @Test func refusesShortPasswordsNamingTheField() {
        let error = #expect(throws: ValidationError.self) { try PasswordPolicy.check("short", netID: netID, field: "new") }
        #expect(error?.field == "new")
        #expect(error?.reason.contains("at least 10") == true)
    }

    @Test func countsBytesNotCharactersForTheUpperLimit() {
        // 37 two-byte characters: 37 characters, 74 bytes — over bcrypt's 72.
        let password = String(repeating: "é", count: 37)
        let error = #expect(throws: ValidationError.self) { try PasswordPolicy.check(password, netID: netID) }
        #expect(error?.reason.contains("72 bytes") == true)
        #expect(throws: ValidationError.self) { try PasswordPolicy.check(String(repeating: "a", count: 73), netID: netID) }
    }

    /// bcrypt reads 72 bytes: a longer guess is one it cannot check whole, so it must never match.
    @Test func onlyPasswordsBcryptReadsWholeAreCheckable() {
        let exactly = String(repeating: "a", count: 72)
        #expect(PasswordPolicy.isCheckable(exactly))
        #expect(!PasswordPolicy.isCheckable(exactly + "anything else"))
        #expect(!PasswordPolicy.isCheckable(String(repeating: "é", count: 37)))
        #expect(PasswordPolicy.isCheckable(String(repeating: "é", count: 36)))
    }

    @Test func refusesTheNetIDInAnyCase() {
        let long = try! NetID("jdoe123456")
        #expect(throws: ValidationError.self) { try PasswordPolicy.check("JDoe123456", netID: long) }
        #expect(throws: ValidationError.self) { try PasswordPolicy.check(" jdoe123456 ", netID: long) }
    }

    @Test func refusesControlCharacters() {
        #expect(throws: ValidationError.self) { try PasswordPolicy.check("abcdefghij\u{0}x", netID: netID) }
        #expect(throws: ValidationError.self) { try PasswordPolicy.check("abcdefghij\nx", netID: netID) }
    }
}

@Suite struct ContactDetailTests {
    @Test func emailIsTrimmedAndItsDomainLowercased() throws {
        #expect(try EmailAddress("  Jane.Doe@Example.EDU ").rawValue == "Jane.Doe@example.edu")
    }

    @Test func theAtSignIsFoundByCodePointEvenBeforeACombiningMark() throws {
        // "@" + U+0301 is one Character; openapi.yaml's pattern (and any client) reads code points.
        #expect(try EmailAddress("jd@\u{301}x.example.edu").rawValue == "jd@\u{301}x.example.edu")
        #expect(throws: ValidationError.self) { try EmailAddress("jd@\u{301}-x.edu".replacingOccurrences(of: "\u{301}", with: "")) }
    }

    @Test(arguments: ["", "jd123", "jd123@", "@example.edu", "jd@example", "jd 123@example.edu", "a@b@c.edu", "jd@-x.edu", "jd@x..edu"])
    func refusesMalformedEmail(_ text: String) {
        let error = #expect(throws: ValidationError.self) { try EmailAddress(text) }
        #expect(error?.field == "email")
    }

    @Test func phoneKeepsDigitsAndALeadingPlus() throws {
        #expect(try PhoneNumber("(607) 555-0100").rawValue == "6075550100")
        #expect(try PhoneNumber("+1 607.555.0100").rawValue == "+16075550100")
    }

    @Test(arguments: ["", "12345", "607-555-010x", "1+6075550100", String(repeating: "1", count: 16)])
    func refusesMalformedPhones(_ text: String) {
        let error = #expect(throws: ValidationError.self) { try PhoneNumber(text) }
        #expect(error?.field == "phone")
    }

    @Test func contactDetailsRoundTripAsJSONStrings() throws {
        let email = try EmailAddress("jd@example.edu")
        let data = try JSONEncoder().encode([email])
        #expect(String(decoding: data, as: UTF8.self) == #"["jd@example.edu"]"#)
        #expect(throws: (any Error).self) { try JSONDecoder().decode([PhoneNumber].self, from: Data(#"["12"]"#.utf8)) }
    }
}
