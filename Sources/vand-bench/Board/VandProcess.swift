import AsyncHTTPClient
import Foundation

/// A `vand` the benchmark starts on 127.0.0.1 and stops when done.
final class VandProcess: @unchecked Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    /// The `vand` built next to this `vand-bench` (`swift build -c release --product vand`).
    static func besideThisBinary() -> String {
        URL(fileURLWithPath: CommandLine.arguments.first ?? "vand-bench").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("vand").path
    }

    /// Starts `path` listening on `port` with `environment` over this process's environment.
    static func start(path: String, port: Int, environment: [String: String]) throws -> VandProcess {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CampusBenchError("no vand at \(path); build it first: swift build -c release --product vand")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = []
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        env["VAND_HOST"] = "127.0.0.1"
        env["VAND_PORT"] = String(port)
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
        return VandProcess(process: process, port: port)
    }

    /// Waits up to a minute for `GET /readyz` to answer 200.
    func waitUntilReady(_ client: HTTPClient) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw CampusBenchError("vand exited with status \(process.terminationStatus)") }
            if let answer = try? await BoardBenchmark.get(client, "http://127.0.0.1:\(port)/readyz", cookie: nil), answer.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CampusBenchError("vand did not become ready within a minute")
    }

    /// Stops it (SIGTERM) and waits.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
