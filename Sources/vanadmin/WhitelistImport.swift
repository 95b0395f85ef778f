import ArgumentParser
import Foundation
import Synchronization
import VanDomain
import VanServices

#if canImport(Glibc)
    import Glibc
#endif

/// `vanadmin whitelist import FILE.csv [--replace] [--invite OUT.csv]`.
struct WhitelistImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the office's CSV list: all of it, or nothing if any line is bad.",
        discussion: """
            The first line names the columns: net_id (required), name, email, until (yyyy-MM-dd), note.
            A column the file has replaces that detail (an empty cell clears it); a column it lacks is left alone.
            Importing the same file twice changes nothing. Prints counts added / updated / removed / unchanged.
            """
    )

    @Argument(help: "The CSV file.") var file: String
    @Flag(help: "Make the whitelist exactly the file: remove every net ID it does not list.") var replace = false
    @Option(
        help: ArgumentHelp(
            "Create an account for every new entry and write net_id,temporary_password to this new file (mode 0600).", valueName: "OUT.csv"))
    var invite: String?
    @Flag(help: "Print JSON for scripts instead of a summary.") var json = false
    @OptionGroup var actor: ActorOptions

    struct Summary: Encodable {
        let added: [String]
        let updated: [String]
        let removed: [String]
        let unchanged: Int
        let invited: [String]
        let invite_file: String?
    }

    func run() async throws {
        let who = try actor.resolved()
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file); check the path and permissions") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError("\(file) is not UTF-8 text; save it from the spreadsheet as \"CSV UTF-8\"")
        }
        let parsed: WhitelistFile
        do {
            parsed = try WhitelistFile(parsing: text)
        } catch {
            for problem in error.problems {
                FileHandle.standardError.write(Data("\(file):\(problem.line): \(problem.reason)".escapingControlCharacters.utf8 + [0x0A]))
            }
            let count = error.problems.count
            throw CLIError(
                "\(file) has \(count) bad line\(count == 1 ? "" : "s"); nothing was imported. Fix \(count == 1 ? "it" : "them") and run the import again."
            )
        }
        let output = try invite.map { try SecretFile(creating: $0) }
        let source = URL(fileURLWithPath: file).lastPathComponent
        do {
            try await AccountsTools.run { tools in
                let report = try await tools.whitelist.importFile(
                    parsed, replace: replace, invite: output != nil, source: source, actor: who,
                    beforeCommit: { invitations in try output?.write(invitations) }
                )
                printReport(report, tools: tools)
            }
        } catch {
            output?.discard()
            throw error
        }
    }

    private func printReport(_ report: WhitelistImportReport, tools: AccountsTools) {
        if json {
            try? printJSON(
                Summary(
                    added: report.added.map(\.rawValue), updated: report.updated.map(\.rawValue), removed: report.removed.map(\.rawValue),
                    unchanged: report.unchanged.count, invited: report.invited.map(\.netID.rawValue), invite_file: invite
                ))
            return
        }
        say("added \(report.added.count), updated \(report.updated.count), removed \(report.removed.count), unchanged \(report.unchanged.count)")
        if !report.updated.isEmpty { say("updated: \(report.updated.map(\.rawValue).joined(separator: ", "))") }
        if !report.removed.isEmpty { say("removed: \(report.removed.map(\.rawValue).joined(separator: ", "))") }
        if let invite {
            let until = report.invited.first.map { ", valid until \(tools.format($0.expiresAt))" } ?? ""
            say("invited \(report.invited.count); temporary passwords are in \(invite) (mode 0600\(until)). Hand them over and delete the file.")
        }
    }
}

/// A new file only its owner can read, for temporary passwords. Refuses to overwrite.
final class SecretFile: Sendable {
    let path: String
    /// The open descriptor; nil once closed.
    private let descriptor: Mutex<Int32?>

    init(creating path: String) throws {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason =
                errno == EEXIST ? "it already exists; choose a new name so no earlier passwords are overwritten" : String(cString: strerror(errno))
            throw CLIError("cannot create \(path): \(reason)")
        }
        // The mode given to open() is filtered by the umask; make sure it is exactly 0600.
        _ = fchmod(fd, 0o600)
        descriptor = Mutex(fd)
    }

    /// Writes `net_id,temporary_password` lines, flushes them to disk and closes the file.
    func write(_ invitations: [Invitation]) throws {
        var text = "net_id,temporary_password\n"
        for invitation in invitations { text += "\(invitation.netID),\(invitation.temporaryPassword)\n" }
        let bytes = Array(text.utf8)
        try descriptor.withLock { descriptor in
            guard let fd = descriptor else { throw CLIError("\(path) is already closed") }
            defer { descriptor = nil }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                guard written > 0 else {
                    close(fd)
                    throw CLIError("cannot write \(path): \(String(cString: strerror(errno))); nothing was imported")
                }
                offset += written
            }
            let synced = fsync(fd) == 0
            guard close(fd) == 0, synced else {
                throw CLIError("cannot save \(path): \(String(cString: strerror(errno))); nothing was imported")
            }
        }
    }

    /// Deletes the file after a failed import, so no passwords for accounts that do not exist remain.
    func discard() {
        descriptor.withLock { descriptor in
            if let fd = descriptor { close(fd) }
            descriptor = nil
        }
        unlink(path)
    }
}
