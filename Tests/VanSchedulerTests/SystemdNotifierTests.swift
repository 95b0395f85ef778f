import Foundation
import Glibc
import Testing
@testable import VanScheduler

/// A datagram socket the test binds, standing in for systemd.
final class NotifyListener {
    let fd: Int32
    let path: String

    init(abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let name = "vand-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        path = abstract ? "@" + name : NSTemporaryDirectory() + name
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array((abstract ? name : path).utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[(abstract ? 1 : 0) + index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw TestError("bind failed: errno \(errno)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram (waits at most 5 s).
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    deinit {
        close(fd)
        if !path.hasPrefix("@") { unlink(path) }
    }
}

struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite("sd_notify")
struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func datagramsReachTheSocket(abstract: Bool) throws {
        let listener = try NotifyListener(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "4000000"])
        #expect(notifier.watchdogInterval == .seconds(2))
        notifier.ready(status: "serving on 127.0.0.1:8080")
        #expect(listener.receive() == "READY=1\nSTATUS=serving on 127.0.0.1:8080")
        notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        notifier.stopping()
        #expect(listener.receive() == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func withoutSystemdNothingIsSent() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.send("READY=1") == false)
        // A watchdog meant for another process is not ours.
        let other = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"])
        #expect(other.watchdogInterval == nil)
    }
}
