import Foundation
import VanServices
import VanTestSupport
import VanPostgres

/// Runs the real `vanadmin` binary (built next to the test bundle) against one test database.
struct CLI {
    let databaseURL: String
    let directory: URL

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func make() async throws -> CLI {
        let url = try await TestCluster.makeDatabaseURL(template: "vand_template")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vanadmin-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return CLI(databaseURL: url, directory: directory)
    }

    /// `.build/debug/vanadmin`, beside the test bundle.
    static let binary: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("vanadmin")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("vanadmin")
    }()

    /// Runs `vanadmin arguments…` and waits for it (on a thread of its own, not the cooperative pool).
    func run(_ arguments: String..., environment extra: [String: String] = [:]) async throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = databaseURL
        environment["VAND_BCRYPT_COST"] = "4"
        environment["USER"] = "dispatcher-login"
        environment["SUDO_USER"] = nil
        environment.merge(extra) { $1 }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let binary = Self.binary.path
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    try process.run()
                    let stdout = out.fileHandleForReading.readDataToEndOfFile()
                    let stderr = err.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(
                        returning: Result(
                            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                            stderr: String(decoding: stderr, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: CLIRunError(description: "cannot run \(binary): \(error)"))
                }
            }
        }
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func json(_ result: Result) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// A pool on the same database, to check what the commands did.
    func database() -> Database {
        Database(pool: PGPool(configuration: PGConfiguration(connectionString: databaseURL), size: 1, logger: TestCluster.quietLogger))
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

struct CLIRunError: Error, CustomStringConvertible {
    let description: String
}
