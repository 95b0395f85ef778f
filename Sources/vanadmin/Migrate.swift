import ArgumentParser
import Foundation
import VanServices
import VanPostgres

/// `vanadmin migrate`: apply pending migrations, or list them with `--check`.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending database migrations (each once, in order, in its own transaction).",
        discussion: "With --check, change nothing: print applied and pending migrations and exit 1 if any are pending."
    )

    @Flag(help: "Only report; exit 1 when migrations are pending.")
    var check = false

    func run() async throws {
        try await withDatabase(migrate: false) { database in
            let runner: MigrationRunner
            do { runner = try MigrationRunner(directory: VandPaths.migrations()) } catch { throw CLIError("\(error)") }
            if check {
                let status = try await runner.status(pool: database.pool)
                for migration in status.applied { say("applied  \(migration.fileName)") }
                for migration in status.pending { say("pending  \(migration.fileName)") }
                if !status.pending.isEmpty { throw ExitCode(1) }
            } else {
                let applied = try await runner.migrate(pool: database.pool)
                if applied.isEmpty {
                    say("up to date (\(runner.migrations.count) migrations)")
                } else {
                    for migration in applied { say("applied  \(migration.fileName)") }
                }
            }
        }
    }
}
