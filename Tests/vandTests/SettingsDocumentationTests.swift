import Foundation
import Testing
import VanDomain
import VanServices
@testable import vand

/// The settings table is the one place a setting is described: the files made from it
/// must match it, and no `VAND_*` name may exist in the code or the docs without a row.
@Suite struct SettingsDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every file under `folder` whose name ends in one of `suffixes`.
    static func files(under folder: String, _ suffixes: [String]) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in suffixes.contains { path.hasSuffix($0) } }.map { "\(folder)/\($0)" }
    }

    static func names(in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "VAND_[A-Z0-9_]*[A-Z0-9]")
        return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) })
    }

    @Test func theEnvExampleIsMadeFromTheTable() throws {
        #expect(try Self.read("deploy/vand.env.example") == SettingSpec.environmentExample, "run scripts/settings-docs")
    }

    @Test func theReadmeTableIsMadeFromTheTable() throws {
        let readme = try Self.read("README.md")
        let begin = "<!-- settings table: made by scripts/settings-docs from SettingSpec+All.swift -->\n"
        let start = try #require(readme.range(of: begin)), end = try #require(readme.range(of: "\n<!-- end of settings table -->"))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == SettingSpec.markdownTable, "run scripts/settings-docs")
    }

    /// A `"VAND_…"` string in Sources with no row is a setting nobody documented (VAND_OPENAPI_PATH was one).
    @Test func everyVariableTheCodeNamesHasARow() throws {
        var named: Set<String> = []
        for file in Self.files(under: "Sources", [".swift"]) { named.formUnion(Self.names(in: try Self.read(file))) }
        let rows = Set(SettingSpec.all.map(\.name))
        let others = SettingSpec.notSettings.union(SettingSpec.formerNames.keys)
        #expect(named.subtracting(rows).subtracting(others).isEmpty, "no row for \(named.subtracting(rows).subtracting(others).sorted())")
        #expect(
            rows.filter { $0.hasPrefix("VAND_") }.subtracting(named).isEmpty,
            "rows never read: \(rows.filter { $0.hasPrefix("VAND_") }.subtracting(named).sorted())")
    }

    /// A doc naming a variable the code does not read is how VAND_REMINDER_LEAD_MINUTES happened
    /// (now a former name, which the start-up warning corrects).
    @Test func everyVariableTheDocsNameHasARow() throws {
        let rows = Set(SettingSpec.all.map(\.name)).union(SettingSpec.notSettings).union(SettingSpec.formerNames.keys)
        for file in ["README.md", "deploy/README.md"] + Self.files(under: "docs", [".md"]) + Self.files(under: "deploy", [".service", ".example"]) {
            let unknown = Self.names(in: try Self.read(file)).subtracting(rows)
            #expect(unknown.isEmpty, "\(file) names \(unknown.sorted()), which vand does not read")
        }
    }

    /// Adding a `static let … = SettingSpec(` without listing it in `all` would leave it out of every document.
    @Test func everyRowIsListed() throws {
        let table = try Self.read("Sources/VanServices/Settings/SettingSpec+All.swift")
        let declared = table.components(separatedBy: "= SettingSpec(").count - 1
        #expect(declared == SettingSpec.all.count)
        #expect(Set(SettingSpec.all.map(\.name)).count == SettingSpec.all.count)
    }

    /// Each row's default is a value its own reader accepts, and is what vand runs with.
    @Test func defaultsAreValidAndUsed() throws {
        for spec in SettingSpec.all {
            guard let value = spec.defaultValue else { continue }
            switch spec.accepts {
            case .integer: #expect(try spec.integer([spec.name: value]) == (try spec.integer([:])))
            case .number: #expect(try spec.number([spec.name: value]) == (try spec.number([:])))
            case .boolean: #expect(try spec.boolean([spec.name: value]) == (try spec.boolean([:])))
            case .choice: #expect(try spec.choice([spec.name: value]) == (try spec.choice([:])))
            case .text: break
            }
        }
        let configuration = try AppConfiguration.fromEnvironment(["DATABASE_URL": "postgresql://localhost/vand"])
        #expect(configuration.port == 8080 && configuration.host == "127.0.0.1" && configuration.database.poolSize == 8)
        #expect(configuration.events.reminderLead == 15 * 60 && configuration.accounts.bcryptCost == 12)
        #expect(configuration.booking.policy.horizon == 14 * 86_400 && configuration.timeZone.identifier == "America/New_York")
    }

    /// A typo or an old name is warned about with the nearest setting; tools' own variables are not.
    @Test func unknownVariablesAreFoundWithASuggestion() {
        let unknown = SettingSpec.unknown(in: [
            "VAND_REMINDER_LEAD_MINUTES": "15", "VAND_PROT": "80", "VAND_FROBNICATE": "1", "VAND_PORT": "80",
            "VAND_TEST_DATABASE_URL": "x", "PATH": "/bin",
        ])
        #expect(unknown.map(\.name) == ["VAND_FROBNICATE", "VAND_PROT", "VAND_REMINDER_LEAD_MINUTES"])
        #expect(unknown.map(\.suggestion) == [nil, "VAND_PORT", "VAND_REMINDER_LEAD"])
    }

    /// A value out of the documented range is refused with the documented words.
    @Test func theRangeInTheTableIsTheRangeEnforced() {
        let error = #expect(throws: SettingError.self) {
            try AppConfiguration.fromEnvironment(["DATABASE_URL": "postgresql://localhost/vand", "VAND_WEBHOOK_MAX_ATTEMPTS": "101"])
        }
        #expect(error?.description == "VAND_WEBHOOK_MAX_ATTEMPTS=101 is not valid: expected a whole number from 1 to 100")
        let secret = #expect(throws: SettingError.self) {
            try AppConfiguration.fromEnvironment(["DATABASE_URL": "postgresql://u:topsecret@h/x?no_such_option=1"])
        }
        #expect(secret?.value == nil)
    }
}
