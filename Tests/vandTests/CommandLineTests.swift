import Foundation
import Testing
import VanTestSupport
import VanPostgres

/// Runs the real built binaries (`vand`, `vanadmin`) as a user would.
enum Binary {
    /// The folder holding the built products (the test bundle sits beside them).
    static let folder: URL = {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("vanadmin").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs a product with arguments and environment overrides; waits for it.
    static func run(_ name: String, _ arguments: [String], environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = folder.appendingPathComponent(name)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DATABASE_URL")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite("vanadmin and vand command lines", .serialized)
struct CommandLineTests {
    @Test func migrateAppliesThenReportsUpToDate() async throws {
        let url = try await TestCluster.makeDatabaseURL()
        let check = try Binary.run("vanadmin", ["migrate", "--check"], environment: ["DATABASE_URL": url])
        #expect(check.status == 1)
        #expect(check.stdout.contains("pending  0001_initial.sql"))
        let apply = try Binary.run("vanadmin", ["migrate"], environment: ["DATABASE_URL": url])
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(apply.stdout.contains("applied  0001_initial.sql"))
        let again = try Binary.run("vanadmin", ["migrate"], environment: ["DATABASE_URL": url])
        #expect(again.stdout.hasPrefix("up to date"))
        let recheck = try Binary.run("vanadmin", ["migrate", "--check"], environment: ["DATABASE_URL": url])
        #expect(recheck.status == 0)
        #expect(recheck.stdout.contains("applied  0001_initial.sql"))
    }

    @Test func unreachableDatabaseIsOneLineAndNonZero() throws {
        let result = try Binary.run("vanadmin", ["migrate"], environment: ["DATABASE_URL": "postgresql://admin:do-not-print-me@/vand?host=/nonexistent-dir"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("could not connect to PostgreSQL"))
        #expect(!result.stderr.contains("do-not-print-me"))
        #expect(result.stdout.isEmpty)
    }

    @Test func helpListsEverySetting() throws {
        let result = try Binary.run("vand", ["--help"], environment: [:])
        #expect(result.status == 0)
        for variable in ["DATABASE_URL", "VAND_DATA_DIR", "VAND_HOST", "VAND_PORT", "VAND_TIMEZONE", "VAND_LOG_LEVEL", "VAND_DB_POOL_SIZE"] {
            #expect(result.stdout.contains(variable), "vand --help does not mention \(variable)")
        }
        let admin = try Binary.run("vanadmin", ["--help"], environment: [:])
        #expect(admin.status == 0)
        #expect(admin.stdout.contains("migrate"))
    }

    @Test func badSettingStopsStartUpWithOneLine() throws {
        let result = try Binary.run("vand", [], environment: ["VAND_PORT": "not-a-port"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("VAND_PORT=not-a-port is not valid"))
    }
}
