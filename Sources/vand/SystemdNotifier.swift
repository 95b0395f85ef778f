import Foundation
import Glibc

/// sd_notify without libsystemd: one datagram to the AF_UNIX socket named by
/// `$NOTIFY_SOCKET` (a leading `@` is the abstract namespace). Without the
/// variable (not under systemd) every call does nothing.
struct SystemdNotifier: Sendable {
    /// The socket path; nil when not running under a notify-type unit.
    let socketPath: String?
    /// Half of `$WATCHDOG_USEC`: how often to send `WATCHDOG=1`; nil when no watchdog is set.
    let watchdogInterval: Duration?

    /// Reads `NOTIFY_SOCKET` and `WATCHDOG_USEC` (honouring `WATCHDOG_PID`).
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        if path != nil, let text = environment["WATCHDOG_USEC"], let micros = UInt64(text), micros > 0,
            environment["WATCHDOG_PID"].map({ Int32($0) == getpid() }) ?? true
        {
            watchdogInterval = .microseconds(Int64(micros / 2))
        } else {
            watchdogInterval = nil
        }
    }

    /// Whether notifications go anywhere.
    var isEnabled: Bool { socketPath != nil }

    /// `READY=1` with a status line: start-up is complete (migrations checked, listener bound).
    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// A `STATUS=` line `systemctl status` shows.
    func status(_ text: String) { send("STATUS=\(text)") }
    /// `WATCHDOG=1`: the service is healthy.
    func watchdog() { send("WATCHDOG=1") }
    /// `STOPPING=1` at the start of a graceful shutdown.
    func stopping() { send("STOPPING=1\nSTATUS=stopping") }

    /// Sends one datagram; errors are ignored (systemd may not be listening).
    @discardableResult
    func send(_ message: String) -> Bool {
        guard var path = socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count + (abstract ? 1 : 0) < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            let offset = abstract ? 1 : 0  // abstract names start with a NUL byte
            for (index, byte) in bytes.enumerated() { buffer[offset + index] = byte }
        }
        // Family, then the path and its NUL terminator (or the leading NUL of an abstract name).
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let payload = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, payload, payload.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == payload.count
    }
}
