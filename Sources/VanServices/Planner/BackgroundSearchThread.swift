import Glibc
import NIOPosix

/// The one thread the planner's background search runs on, under Linux's `SCHED_IDLE` policy:
/// it gets a core only when nothing else of vand, PostgreSQL or the machine wants it, so on a busy
/// machine a booking's work always comes first (nice 10 was not enough: measured under booking
/// load, the search still took ~15 % of both cores, because the kernel's autogroups weigh nice
/// values only against threads of the same session). The background search never takes more than
/// one core. It lives as long as the process (a global pool, never shut down). Linux keeps the
/// policy per thread, so only this thread is lowered.
enum BackgroundSearchThread {
    /// Linux's `SCHED_IDLE` (not exported by Glibc's module without `_GNU_SOURCE`).
    static let idlePolicy: Int32 = 5
    /// The nice value used where `SCHED_IDLE` is refused (0 is normal, 19 the lowest priority).
    static let niceness: Int32 = 19

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

    /// Lowers the calling thread's priority (on Linux, pid 0 is the calling thread, not the
    /// whole process); where that is refused (a sandbox), the lowest nice value instead, and
    /// failing that it stays as it was.
    private static func lowerPriority() {
        guard sched_getscheduler(0) != idlePolicy else { return }
        var parameters = sched_param()
        parameters.sched_priority = 0
        if sched_setscheduler(0, idlePolicy, &parameters) == 0 { return }
        if getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) < niceness {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        }
    }

    /// The CPU time the calling thread has used, in seconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUSeconds() -> Double {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { return 0 }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The scheduling policy of the search thread (5 is `SCHED_IDLE`), for tests and diagnostics.
    static func policy() async throws -> Int32 {
        try await run { sched_getscheduler(0) }
    }
}
