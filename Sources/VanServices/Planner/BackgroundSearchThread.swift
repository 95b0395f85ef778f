import Glibc
import NIOPosix

/// The one thread the planner's background search runs on, at a lower scheduling priority
/// (nice 10) than the rest of vand: on a busy machine a booking's work comes first, and the
/// background search never takes more than one core. It lives as long as the process (a global
/// pool, never shut down). Linux keeps the nice value per thread, so only this thread is lowered.
enum BackgroundSearchThread {
    /// The nice value of the thread (0 is normal, 19 the lowest priority).
    static let niceness: Int32 = 10

    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// Runs `body` on the thread (never on the cooperative pool).
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive {
            lowerPriority()
            return try body()
        }
    }

    /// Lowers the calling thread's priority (on Linux, `who` 0 is the calling thread, not the
    /// whole process); a failure (a sandbox that forbids it) leaves it as it was.
    private static func lowerPriority() {
        if getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) < niceness {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        }
    }
}
