import Glibc

/// Runs a program to completion with `posix_spawn` and `waitpid`, output to a file.
///
/// Foundation's `Process` was not used: on Linux its SIGCHLD-driven run loop missed
/// the exit of concurrently spawned children (seen here: `pg_ctl` finished, the
/// caller waited forever). Blocks the calling thread; call it from a dedicated one.
enum ChildProcess {
    /// Runs `arguments[0]` (an absolute path) and returns its exit status;
    /// stdout and stderr go to `outputPath` (truncated), stdin is /dev/null.
    static func run(_ arguments: [String], outputPath: String) throws(EmbeddedPostgresError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard status == 0 else {
            throw .commandFailed(command: arguments.joined(separator: " "), status: status, output: String(cString: strerror(status)))
        }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0 {
            guard errno == EINTR else {
                throw .commandFailed(command: arguments.joined(separator: " "), status: errno, output: "waitpid: \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
        if exitStatus & 0x7f == 0 { return (exitStatus >> 8) & 0xff }
        return 128 + (exitStatus & 0x7f)
    }
}
