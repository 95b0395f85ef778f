import NIOCore
import NIOPosix
import VanServices

/// What must hold before vand tells systemd it is alive (`WATCHDOG=1`): every event loop
/// runs a task, and the database answers a round trip, each within `timeout`. A timer
/// alone would keep petting the watchdog while requests hang.
struct WatchdogCheck: Sendable {
    let database: Database
    let eventLoops: any EventLoopGroup
    let timeout: Duration

    /// The loops Hummingbird serves on (its default group) and the process's database.
    init(database: Database, eventLoops: any EventLoopGroup = NIOSingletons.posixEventLoopGroup, timeout: Duration) {
        self.database = database
        self.eventLoops = eventLoops
        self.timeout = timeout
    }

    /// Nil when healthy; otherwise what is not.
    func problem() async -> String? {
        for loop in eventLoops.makeIterator() {
            do {
                try await withDeadline(timeout) { try await loop.submit {}.get() }
            } catch {
                return "an event loop did not run a task within \(timeout)"
            }
        }
        guard await database.isReady(within: timeout) else {
            return "the database did not answer a round trip within \(timeout)"
        }
        return nil
    }
}
