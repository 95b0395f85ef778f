import Foundation
import Testing
import VanTestSupport
import VanPostgres
import VanServices

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
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
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
        let result = try Binary.run(
            "vanadmin", ["migrate"], environment: ["DATABASE_URL": "postgresql://admin:do-not-print-me@/vand?host=/nonexistent-dir"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("could not connect to PostgreSQL"))
        #expect(!result.stderr.contains("do-not-print-me"))
        #expect(result.stdout.isEmpty)
    }

    @Test func helpListsEverySetting() throws {
        let result = try Binary.run("vand", ["--help"], environment: [:])
        #expect(result.status == 0)
        let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for spec in SettingSpec.all {
            #expect(result.stdout.contains(spec.name), "vand --help does not mention \(spec.name)")
            #expect(words.contains("default \(spec.defaultShort)]"), "vand --help does not give \(spec.name)'s default")
        }
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let admin = try Binary.run("vanadmin", ["--help"], environment: [:])
        #expect(admin.status == 0)
        #expect(admin.stdout.contains("migrate"))
    }

    @Test func benchHelpSucceedsAndMisuseDoesNot() throws {
        let benchmarks = ["darp", "campus", "scheduler", "events", "fixed-json", "fanout", "simulate", "board"]
        for benchmark in benchmarks {
            let help = try Binary.run("vand-bench", [benchmark, "--help"], environment: [:])
            #expect(help.status == 0, "vand-bench \(benchmark) --help: \(help.stderr)")
            #expect(help.stdout.hasPrefix("usage: vand-bench \(benchmark)"), "\(help.stdout)")
        }
        let all = try Binary.run("vand-bench", ["--help"], environment: [:])
        #expect(all.status == 0 && all.stdout.split(separator: "\n").count == benchmarks.count)
        let misuse = try Binary.run("vand-bench", ["darp", "--seconds"], environment: [:])
        #expect(misuse.status == 2 && misuse.stderr.contains("--seconds"))
    }

    /// Exit status 78 (EX_CONFIG), which the units' RestartPreventExitStatus=78 does not restart.
    @Test(arguments: [("VAND_PORT", "not-a-port"), ("VAND_DB_POOL_SIZE", "0"), ("VAND_REMINDER_LEAD", "0"), ("VAND_AUTO_APPROVE", "maybe")])
    func badSettingStopsStartUpWithOneLineAndExit78(_ variable: String, _ value: String) throws {
        for command in [[], ["worker"], ["api"]] {
            let result = try Binary.run("vand", command, environment: [variable: value])
            #expect(result.status == 78)
            #expect(result.stderr.contains("\(variable)=\(value) is not valid"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }
}
