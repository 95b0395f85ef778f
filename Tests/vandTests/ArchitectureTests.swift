import Foundation
import Testing

/// docs/architecture.md's table of imports is what the sources import: every module a
/// target's files import is in its row, and every module a row names is imported.
@Suite("The architecture page's imports table matches Sources/")
struct ArchitectureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `target` → the modules its row allows (every `Name` in backticks in the second column).
    static func table() throws -> [String: Set<String>] {
        let page = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let target = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[target] = Set(backticked(cells[2]))
        }
        return rows
    }

    static func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Every module imported by the Swift files under `Sources/target`.
    static func imports(of target: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(target)")
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var modules: Set<String> = []
        let pattern = importPattern()
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let match = line.firstMatch(of: pattern) { modules.insert(String(match.1)) }
            }
        }
        return modules
    }

    /// An `import` line (with attributes, or of one declaration); the module is the capture.
    static func importPattern() -> Regex<(Substring, Substring)> {
        /^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)/
    }

    static let swiftTargets = ["VanDomain", "VanScheduler", "VanPostgres", "VanServices", "vand", "vanadmin", "vand-bench"]

    @Test func everyImportIsInItsTargetsRowAndEveryNamedModuleIsImported() throws {
        let table = try Self.table()
        for target in Self.swiftTargets {
            let allowed = try #require(table[target], "docs/architecture.md has no row for `\(target)`")
            let imported = try Self.imports(of: target)
            #expect(
                imported.subtracting(allowed).isEmpty,
                "\(target) imports \(imported.subtracting(allowed).sorted()), which its row in docs/architecture.md does not name")
            #expect(
                allowed.subtracting(imported).subtracting(["Darwin"]).isEmpty,
                "docs/architecture.md says \(target) imports \(allowed.subtracting(imported).sorted()), which none of its files do")
        }
    }

    @Test func theTableHasARowForEveryTargetInPackageSwift() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = Set(manifest.matches(of: /\.(?:target|executableTarget|systemLibrary)\(\s*name: "([^"]+)"/).map { String($0.1) })
            .subtracting(["VanTestSupport"])
        #expect(Set(try Self.table().keys) == declared)
        #expect(
            try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
                .contains(
                    "One package, \(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][declared.count]) targets")
        )
    }

    @Test func theReaderFindsImportsOfEveryForm() {
        // The pattern the table test relies on, on each spelling Swift allows.
        let pattern = Self.importPattern()
        for (line, module) in [
            ("import NIOHTTP1", "NIOHTTP1"), ("@preconcurrency import Foundation", "Foundation"),
            ("import struct NIOCore.ByteBuffer", "NIOCore"), ("@_spi(Testing) import VanServices", "VanServices"),
        ] {
            #expect(line.firstMatch(of: pattern).map { String($0.1) } == module)
        }
    }
}
