import Crypto
import Foundation

/// One numbered SQL file from `sql/`: `0001_initial.sql` is version 1, name `initial`.
public struct Migration: Sendable, Hashable {
    /// The number before the underscore; migrations apply in this order.
    public let version: Int
    /// The rest of the file name, without `.sql`.
    public let name: String
    /// The file's SQL text.
    public let sql: String

    /// Creates a migration from its parts.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// `0001_initial.sql`.
    public var fileName: String { String(format: "%04d_%@.sql", version, name) }

    /// SHA-256 of the SQL text in hex; an applied file whose checksum changes is refused.
    public var checksum: String {
        SHA256.hash(data: Data(sql.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The schema as the migrations leave it, generated beside them for reading
    /// (`schema.sql`); never applied.
    public static let snapshotFileName = "schema.sql"

    /// Reads every `NNNN_name.sql` in `directory`, sorted by version. Files not ending in `.sql`
    /// and ``snapshotFileName`` are not migrations; any other `.sql` file with a malformed or
    /// duplicated number is an error.
    public static func load(from directory: String) throws(MigrationError) -> [Migration] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .directoryUnreadable(directory)
        }
        var migrations: [Migration] = []
        for file in files where file.hasSuffix(".sql") && file != snapshotFileName {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"),
                let version = Int(stem[..<underscore]), version > 0,
                stem[..<underscore].count == 4
            else { throw .badFileName(file) }
            let name = String(stem[stem.index(after: underscore)...])
            guard !name.isEmpty else { throw .badFileName(file) }
            if let existing = migrations.first(where: { $0.version == version }) {
                throw .duplicateVersion(version, existing.name, name)
            }
            guard let sql = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else {
                throw .directoryUnreadable(directory + "/" + file)
            }
            migrations.append(Migration(version: version, name: name, sql: sql))
        }
        return migrations.sorted { $0.version < $1.version }
    }
}

/// Why migrations could not be read or applied.
public enum MigrationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The folder or a file in it could not be read.
    case directoryUnreadable(String)
    /// The SQL folder was not found at all.
    case directoryNotFound
    /// A `.sql` file is not named `NNNN_name.sql`.
    case badFileName(String)
    /// Two files share a number.
    case duplicateVersion(Int, String, String)
    /// An applied migration's file changed since it was applied.
    case checksumMismatch(version: Int, name: String)
    /// The database has a migration this build does not know (it is older than the schema).
    case unknownApplied(version: Int, name: String)
    /// Migrations are waiting and this process was told not to apply them.
    case pending([String])

    public var description: String {
        switch self {
        case .directoryUnreadable(let path): return "cannot read migrations at \(path)"
        case .directoryNotFound: return "cannot find the sql/ migrations folder; set VAND_SQL_DIR to it"
        case .badFileName(let file): return "migration file \(file) is not named NNNN_name.sql; rename it"
        case .duplicateVersion(let version, let first, let second):
            return "migrations \(first) and \(second) share number \(version); renumber one"
        case .checksumMismatch(let version, let name):
            return
                "migration \(String(format: "%04d", version))_\(name).sql was changed after it was applied; restore the file and put the change in a new migration"
        case .unknownApplied(let version, let name):
            return "the database has migration \(String(format: "%04d", version))_\(name), which this build does not know; run a newer vand"
        case .pending(let names):
            return "migrations not applied: \(names.joined(separator: ", ")); run `vanadmin migrate`"
        }
    }
}
