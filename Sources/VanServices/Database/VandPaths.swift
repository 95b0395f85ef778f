import Foundation
import Glibc

/// Where vand's files are on a machine: the SQL migrations and the embedded cluster's folder.
/// VanPostgres takes both as arguments; the rules for finding them are vand's.
public enum VandPaths {
    /// The folder of the embedded cluster shared by `vand` and `vanadmin`: `$VAND_DATA_DIR`,
    /// else `/var/lib/vand/embedded` for root, else `$XDG_STATE_HOME/vand/embedded` or
    /// `~/.local/state/vand/embedded`.
    public static func embeddedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["VAND_DATA_DIR"], !explicit.isEmpty { return explicit }
        if geteuid() == 0 { return "/var/lib/vand/embedded" }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/vand/embedded" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.local/state/vand/embedded"
    }

    /// Where the SQL files live: `$VAND_SQL_DIR`, else `share/vand/sql` beside the
    /// installed binary, else a `sql/` folder in the source checkout the binary was
    /// built in or in the current directory; nil when none holds `0001_initial.sql`.
    public static func migrations(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit = environment["VAND_SQL_DIR"], !explicit.isEmpty { return explicit }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        var candidates: [URL] = [executable.deletingLastPathComponent().appendingPathComponent("../share/vand/sql")]
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent("sql"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("sql"))
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../sql"))
        for candidate in candidates {
            let path = candidate.standardizedFileURL.path
            if FileManager.default.fileExists(atPath: path + "/0001_initial.sql") { return path }
        }
        return nil
    }
}
