import ArgumentParser
import Foundation
import Logging
import VanDomain
import VanServices
import VanPostgres

/// `vanadmin`: the dispatcher's command line.
@main
struct VanAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vanadmin",
        abstract: "Dispatcher tools for vand.",
        discussion: """
            Uses the same database as vand: DATABASE_URL, or the embedded cluster in VAND_DATA_DIR
            (started if it is not running, and stopped again on exit if this command started it).
            """,
        subcommands: [
            Migrate.self, VansCommand.self, PlacesCommand.self, HoursCommand.self, ClosuresCommand.self,
            SchedulerCommand.self, DemoCommand.self, WhitelistCommand.self, RidersCommand.self,
            RidesCommand.self, ManifestCommand.self, PlanCommand.self, ReportCommand.self,
            EventsCommand.self, WatchCommand.self, DriversCommand.self, DispatchersCommand.self, ShiftsCommand.self,
            TapsCommand.self, PolicyCommand.self, NoShowsCommand.self, AppealsCommand.self, SeriesCommand.self,
        ]
    )
}

/// The settings, read from the environment as `vand` reads them (``VandSettings``); a bad value
/// is one line naming it.
func adminSettings() throws -> VandSettings {
    do throws(SettingError) { return try VandSettings.current() } catch { throw CLIError(error.description) }
}

/// Opens the database, builds the services exactly as `vand` does (``VandServices``: the same
/// settings, on the admin clock), runs `body`, and always closes the database.
func withServices(migrate: Bool = true, _ body: (VandServices) async throws -> Void) async throws {
    let settings = try adminSettings()
    try await withDatabase(settings.database, migrate: migrate) { db in
        try await body(VandServices(settings: settings, pool: db.pool, clock: adminClock))
    }
}

/// Opens the database from the environment, runs `body`, and always closes it.
/// Settings and connection errors become one-line messages.
func withDatabase(migrate: Bool = true, _ body: (Database) async throws -> Void) async throws {
    try await withDatabase(try adminSettings().database, migrate: migrate, body)
}

/// Opens the database at `settings`, runs `body`, and always closes it.
private func withDatabase(_ settings: DatabaseSettings, migrate: Bool, _ body: (Database) async throws -> Void) async throws {
    var logger = Logger(label: "vanadmin")
    logger.logLevel = .warning
    let database: Database
    do {
        database =
            migrate
            ? try await Database.open(settings: settings, logger: logger)
            : try await Database.connect(settings: settings, logger: logger)
    } catch {
        throw CLIError("\(error)")
    }
    do {
        try await body(database)
    } catch let error as PGError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as MigrationError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as DispatchService.DispatchError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as FleetError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as RoadError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as VanDomain.ValidationError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as StandingError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as SeriesError {
        await database.close()
        throw CLIError("\(error)")
    } catch let error as InvalidFields {
        await database.close()
        throw CLIError(error.errors.map { "\($0.field) \($0.reason)" }.joined(separator: "; "))
    } catch let error as RiderSuspended {
        await database.close()
        throw CLIError(error.sentence(hotline: try? adminSettings().hotline))
    } catch {
        await database.close()
        throw error
    }
    await database.close()
}

/// A one-line message on stderr and exit status 1; the message is escaped
/// (``Swift/String/escapingControlCharacters``), since it may quote what someone typed.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message.escapingControlCharacters }
}

/// The one clock vanadmin reads ("now" for decisions, cancellations and today's date).
let adminClock: any TimeSource = SystemTimeSource()
