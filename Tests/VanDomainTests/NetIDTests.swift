import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct NetIDTests {
    @Test(arguments: ["jd123", "ab", "a1", "j.doe", "j_doe-2", String(repeating: "a", count: 32)])
    func acceptsValidIDs(_ raw: String) throws {
        #expect(try NetID(raw).rawValue == raw)
    }

    @Test func normalizesWhitespaceAndCase() throws {
        let id = try NetID("  JD123\n")
        #expect(id.rawValue == "jd123")
        #expect(id == (try NetID("jd123")))
        #expect(id.description == "jd123")
    }

    @Test(arguments: [
        "", "   ", "a", "1abc", "_abc", "ab c", "jd123!", "jd.", "jd-", "jöe", "ab@yale.edu",
        String(repeating: "a", count: 33),
    ])
    func rejectsInvalidIDs(_ raw: String) {
        #expect(throws: ValidationError.self) { try NetID(raw) }
    }

    @Test func errorNamesTheFieldAndSaysWhy() {
        do {
            _ = try NetID("9lives")
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "net_id")
            #expect(error.description.contains("start with a letter"))
        }
    }

    @Test func ordersAlphabetically() throws {
        let ids = try ["zz9", "AB1", "mm"].map { raw throws(ValidationError) in try NetID(raw) }
        #expect(ids.sorted().map(\.rawValue) == ["ab1", "mm", "zz9"])
    }

    @Test func codesAsPlainStringAndValidatesOnDecode() throws {
        #expect(try json([NetID("jd123")]) == #"["jd123"]"#)
        #expect(try decode([NetID].self, #"[" JD123 "]"#) == [try NetID("jd123")])
        #expect(throws: ValidationError.self) { try decode([NetID].self, #"["1x"]"#) }
    }
}
