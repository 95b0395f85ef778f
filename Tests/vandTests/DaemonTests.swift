import Foundation
import Glibc
import Testing
import VanTestSupport
import VanPostgres

/// Runs the real `vand serve` binary as systemd would: READY/WATCHDOG/STOPPING over a
/// notify socket the test binds, SIGTERM in the middle of a burst of requests, and a
/// log that must not contain any secret.
@Suite("vand as a daemon", .serialized)
struct DaemonTests {
    /// Sends one HTTP request on its own connection and reads the whole answer (blocking).
    static func exchange(port: Int, request: String) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "connect failed" }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        _ = send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL))
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    @Test func notifiesSystemdAndFinishesEveryRequestInFlightOnSIGTERM() async throws {
        let url = try await TestCluster.makeDatabaseURL(template: "vand_template")
        let listener = try NotifyListener()
        let process = Process()
        process.executableURL = Binary.folder.appendingPathComponent("vand")
        process.arguments = ["serve"]
        var environment = ProcessInfo.processInfo.environment
        let dbSecret = "db-pass-\(UInt32.random(in: 0...UInt32.max))"
        environment["DATABASE_URL"] = url + " password=\(dbSecret)"
        environment["VAND_PORT"] = "0"
        environment["VAND_BCRYPT_COST"] = "10"
        environment["VAND_WEBHOOK_SECRET"] = "hook-secret-never-logged"
        environment["NOTIFY_SOCKET"] = listener.path
        environment["WATCHDOG_USEC"] = "400000"
        environment["JOURNAL_STREAM"] = "8:1234"
        // The name deploy/vand.env.example used to document; the code reads VAND_REMINDER_LEAD.
        environment["VAND_REMINDER_LEAD_MINUTES"] = "20"
        process.environment = environment
        let logFile = NSTemporaryDirectory() + "vand-daemon-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // READY=1 once migrations are checked and the listener is bound; its status names the port.
        var ready: String?
        while let message = listener.receive() {
            if message.hasPrefix("READY=1") { ready = message; break }
        }
        let status = try #require(ready, "no READY=1 from vand")
        let port = try #require(status.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(listener.receive() == "WATCHDOG=1")

        // Twenty logins (bcrypt, so each takes a while) on their own connections.
        let password = "user-password-\(UInt32.random(in: 0...UInt32.max))"
        func request(_ index: Int) -> String {
            // A different unknown net ID each, so the lockout (5 failures per net ID) stays out of it.
            let body = #"{"net_id":"nobody\#(index)","password":"\#(password)"}"#
            return
                "POST /v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        }
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                let request = request(index)
                group.addTask {
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().async { continuation.resume(returning: Self.exchange(port: port, request: request)) }
                    }
                }
            }
            // SIGTERM as soon as the first answer shows the burst is being served.
            var all = [try await group.next()!]
            kill(process.processIdentifier, SIGTERM)
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.count == 20)
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 401") }, "\(answers.filter { !$0.hasPrefix("HTTP/1.1 401") }.prefix(2))")

        var stopping = false
        while let message = listener.receive() {
            if message.hasPrefix("STOPPING=1") { stopping = true; break }
        }
        #expect(stopping)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try log.close()
        let text = try String(contentsOfFile: logFile, encoding: .utf8)
        #expect(text.contains("<6>"), "journald lines start with the priority")
        #expect(
            text.contains("VAND_REMINDER_LEAD_MINUTES is not a vand setting and is ignored; did you mean VAND_REMINDER_LEAD?"), "\(text.prefix(2000))"
        )
        for secret in [dbSecret, password, "hook-secret-never-logged"] {
            #expect(!text.contains(secret), "the log contains a secret")
        }
        try? FileManager.default.removeItem(atPath: logFile)
    }
}
