import Foundation
import Glibc
import Testing
import VanTestSupport
@testable import vand
import VanPostgres

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
