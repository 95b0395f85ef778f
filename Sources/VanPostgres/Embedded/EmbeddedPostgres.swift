import Foundation
import Glibc
import Logging
import Synchronization

/// A private PostgreSQL cluster for development and tests: `initdb` once, then
/// `pg_ctl start` on a Unix socket inside its folder, stopped on ``stop()``.
///
/// Layout of the folder: `data/` (the cluster), `run/` (socket and server log),
/// `lock` (serialises start-up between processes). If the cluster is already
/// running — another `vand` or `vanadmin` started it — it is reused and left
/// running on stop. As root, the server runs as the unprivileged `postgres` user.
public final class EmbeddedPostgres: Sendable {
    /// The folder holding the cluster.
    public let directory: String
    /// Speed over durability (fsync off); for throwaway test clusters only.
    public let ephemeral: Bool
    /// The port number, which names the socket file.
    public let port: Int
    private let logger: Logger
    private let startedHere = StartedFlag()

    /// Describes a cluster in `directory`; nothing happens until ``start()``.
    public init(directory: String, ephemeral: Bool = false, port: Int = 5432, logger: Logger = Logger(label: "vand.embedded")) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        self.ephemeral = ephemeral
        self.port = port
        self.logger = logger
    }

    /// The data folder inside ``directory``.
    public var dataDirectory: String { directory + "/data" }
    /// The socket folder inside ``directory``.
    public var socketDirectory: String { directory + "/run" }
    /// The server log.
    public var logFile: String { socketDirectory + "/postgres.log" }

    /// A libpq connection string for `database` on this cluster's socket.
    public func connectionString(database: String = "postgres") -> String {
        "host=\(socketDirectory) port=\(port) user=postgres dbname=\(database)"
    }

    /// Creates the cluster if needed and starts it unless it already runs. Blocks for
    /// about a second on first use; call it from a dedicated thread or at start-up.
    public func start() throws(EmbeddedPostgresError) {
        guard !directory.contains(where: { $0 == " " || $0 == "'" || $0 == "\"" }) else {
            throw .unusablePath(directory)
        }
        let bin = try Self.binDirectory()
        let owner = try ServerUser.current()
        try makeDirectory(directory, mode: 0o755, owner: nil)
        let lock = try FileLock(path: directory + "/lock")
        defer { lock.unlock() }

        if !FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") {
            try makeDirectory(dataDirectory, mode: 0o700, owner: owner)
            logger.info("creating embedded PostgreSQL cluster", metadata: ["dir": "\(dataDirectory)"])
            var arguments = ["-D", dataDirectory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]
            if ephemeral { arguments.append("--no-sync") }
            try run(bin + "/initdb", arguments, as: owner)
        }
        try makeDirectory(socketDirectory, mode: 0o755, owner: owner)
        if isRunning(bin: bin, owner: owner) {
            logger.info("reusing running embedded PostgreSQL", metadata: ["dir": "\(directory)"])
            return
        }
        var options = "-k \(socketDirectory) -p \(port) -c listen_addresses='' -c max_connections=200"
        // A throwaway cluster serves a whole test run at once: every in-process vand there holds
        // its LISTEN connections (rider changes, inbox, ETAs, the console's feed) beside its pool,
        // so it gets more room: 500 ran out once ("too many clients already") in a 615-test run, and
        // 1000 in a 742-test run (11 tests failed). Swift Testing runs every test at once, so the
        // peak grows with the count; an idle backend costs a few MB, and 2500 is a few GB at worst.
        if ephemeral { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=2500" }
        try run(bin + "/pg_ctl", ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "-o", options, "start"], as: owner)
        startedHere.set()
        logger.info("started embedded PostgreSQL", metadata: ["socket": "\(socketDirectory)"])
    }

    /// Creates `name` in the cluster unless it exists. Blocks; call from a dedicated thread.
    public func createDatabase(_ name: String, template: String? = nil) throws(PGError) {
        let admin = try PGConnection(configuration: PGConfiguration(connectionString: connectionString()))
        defer { admin.close() }
        if try admin.query("SELECT 1 FROM pg_database WHERE datname = \(name)").count == 0 {
            var sql = "CREATE DATABASE \(try admin.escapeIdentifier(name))"
            if let template { sql += " TEMPLATE \(try admin.escapeIdentifier(template))" }
            try admin.execute(simple: sql)
        }
    }

    /// Stops the server if this process started it; a cluster another process started keeps running.
    public func stop() {
        guard startedHere.take() else { return }
        try? forceStop()
    }

    /// Stops the server whoever started it (`pg_ctl stop`, `fast` by default; `immediate` skips the checkpoint).
    public func forceStop(mode: String = "fast") throws(EmbeddedPostgresError) {
        let bin = try Self.binDirectory()
        let owner = try ServerUser.current()
        try run(bin + "/pg_ctl", ["-D", dataDirectory, "-m", mode, "-w", "-t", "60", "stop"], as: owner)
    }

    /// Restarts the server in place (tests use this to prove clients reconnect).
    public func restart() throws(EmbeddedPostgresError) {
        try forceStop()
        try start()
    }

    /// Finds `initdb` and `pg_ctl`: newest `/usr/lib/postgresql/*/bin`, else `$PATH`.
    public static func binDirectory() throws(EmbeddedPostgresError) -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap { Int($0) }
            .sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return "\(root)/\(version)/bin"
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(folder)/initdb") {
            return String(folder)
        }
        throw .serverNotInstalled
    }

    private func isRunning(bin: String, owner: ServerUser?) -> Bool {
        (try? run(bin + "/pg_ctl", ["-D", dataDirectory, "status"], as: owner, quiet: true)) != nil
    }

    private func makeDirectory(_ path: String, mode: Int, owner: ServerUser?) throws(EmbeddedPostgresError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        } catch {
            throw .commandFailed(command: "mkdir \(path)", status: -1, output: "\(error)")
        }
        if let owner, chown(path, owner.uid, owner.gid) != 0 {
            throw .commandFailed(command: "chown postgres \(path)", status: errno, output: String(cString: strerror(errno)))
        }
    }

    @discardableResult
    private func run(_ executable: String, _ arguments: [String], as owner: ServerUser?, quiet: Bool = false) throws(EmbeddedPostgresError) -> String
    {
        // initdb and postgres refuse to run as root.
        let command = owner != nil ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        // Output goes to a file, not a pipe: the postmaster inherits the descriptor and
        // lives on, so reading a pipe to its end would wait for the server to exit.
        let outputPath = directory + "/command-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(outputPath) }
        let status = try ChildProcess.run(command, outputPath: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            var message = text
            if !quiet, executable.hasSuffix("pg_ctl"), let log = try? String(contentsOfFile: logFile, encoding: .utf8) {
                message += "\n--- server log (last lines) ---\n" + log.split(separator: "\n").suffix(15).joined(separator: "\n")
            }
            throw .commandFailed(command: command.joined(separator: " "), status: status, output: message)
        }
        return text
    }
}

/// Why the embedded cluster could not start.
public enum EmbeddedPostgresError: Error, CustomStringConvertible, Sendable {
    /// No `initdb` found.
    case serverNotInstalled
    /// Running as root, but there is no unprivileged `postgres` user to run the server as.
    case noServerUser
    /// The folder path would break `pg_ctl`'s option parsing.
    case unusablePath(String)
    /// A command exited non-zero.
    case commandFailed(command: String, status: Int32, output: String)

    public var description: String {
        switch self {
        case .serverNotInstalled:
            return
                "PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin or on PATH; install them with `apt-get install postgresql`, or set DATABASE_URL to use an existing server"
        case .noServerUser:
            return
                "running as root but there is no `postgres` user to run the embedded server as; install Debian's postgresql package (it creates the user) or run as a normal user"
        case .unusablePath(let path):
            return "the embedded PostgreSQL folder '\(path)' contains a space or quote; set VAND_DATA_DIR to a simple path"
        case .commandFailed(let command, let status, let output):
            return "`\(command)` failed with status \(status): \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
    }
}

/// The account the server runs as: nil means "this process's own user".
struct ServerUser {
    let uid: uid_t
    let gid: gid_t

    static func current() throws(EmbeddedPostgresError) -> ServerUser? {
        guard geteuid() == 0 else { return nil }
        guard let entry = getpwnam("postgres") else { throw .noServerUser }
        return ServerUser(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }
}

/// An exclusive `flock` held while one process creates or starts the cluster.
struct FileLock {
    let descriptor: Int32

    init(path: String) throws(EmbeddedPostgresError) {
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .commandFailed(command: "open \(path)", status: errno, output: String(cString: strerror(errno)))
        }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    }

    func unlock() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// Remembers whether this process started the server, so only it stops it.
final class StartedFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    func take() -> Bool {
        value.withLock { state in
            defer { state = false }; return state
        }
    }
}
