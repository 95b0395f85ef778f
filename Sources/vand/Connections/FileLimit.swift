import Glibc

/// The process's open-file limit (RLIMIT_NOFILE).
struct FileLimit: Sendable, Equatable, CustomStringConvertible {
    /// The limit in force.
    var soft: Int
    /// The most the soft limit may be raised to without privilege.
    var hard: Int

    /// What the process has now.
    static func current() -> FileLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return FileLimit(soft: 1_024, hard: 1_024) }
        return FileLimit(soft: Self.count(limit.rlim_cur), hard: Self.count(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one (systemd's default soft limit is 1,024 whatever the
    /// hard one). Returns why it could not (e.g. a seccomp filter refusing setrlimit), or nil.
    static func raiseSoftToHard() -> String? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return String(cString: strerror(errno)) }
        guard limit.rlim_cur < limit.rlim_max else { return nil }
        // An unlimited hard limit cannot be the soft one for files; the kernel's usual ceiling is 2^20.
        limit.rlim_cur = limit.rlim_max == rlim_t.max ? min(limit.rlim_max, 1 << 20) : limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    var description: String { "\(soft) open files (hard limit \(hard))" }

    private static func count(_ value: rlim_t) -> Int {
        value == rlim_t.max || value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
