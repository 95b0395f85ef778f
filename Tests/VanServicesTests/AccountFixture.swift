import Foundation
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// A fresh database with the account services on a manual clock and bcrypt at cost 4.
struct AccountFixture {
    let database: Database
    let clock = ManualClock()
    let settings: AccountSettings
    let accounts: AccountService
    let riders: RiderAdministration
    let whitelist: WhitelistAdministration
    let hasher: PasswordHasher
    static let timeZone = TimeZone(identifier: "America/New_York")!

    init(settings: AccountSettings = Self.testSettings) async throws {
        database = try await TestCluster.makeDatabase()
        self.settings = settings
        hasher = PasswordHasher(cost: settings.bcryptCost)
        accounts = AccountService(pool: database.pool, hasher: hasher, settings: settings, clock: clock, timeZone: Self.timeZone)
        riders = RiderAdministration(pool: database.pool, hasher: hasher, settings: settings, clock: clock, timeZone: Self.timeZone)
        whitelist = WhitelistAdministration(riders: riders)
    }

    static var testSettings: AccountSettings {
        var settings = AccountSettings()
        settings.bcryptCost = 4
        return settings
    }

    /// Invites `netID` and changes the temporary password to `password`; returns a full session's token.
    func activeRider(_ netID: String, password: String = "correct horse battery") async throws -> String {
        let id = try NetID(netID)
        let invitation = try await riders.invite(id, actor: "test")
        let login = try await accounts.login(netID: netID, password: invitation.temporaryPassword, from: .unknown)
        let session = try await accounts.authenticate(token: login.token.rawValue)
        try await accounts.changePassword(session, current: invitation.temporaryPassword, new: password, from: .unknown)
        return login.token.rawValue
    }

    /// Every row of every table in the public schema, as JSON text.
    func everyRow() async throws -> [String] {
        try await database.pool.withConnection { connection in
            let tables = try connection.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").map {
                try $0.decode(String.self, "tablename")
            }
            var rows: [String] = []
            for table in tables {
                // The table name comes from the catalog, not from a user; quote it anyway.
                let name = try connection.escapeIdentifier(table)
                let query = SQLQuery(stringLiteral: "SELECT row_to_json(t)::text AS j FROM \(name) t")
                rows += try connection.query(query).map { try $0.decode(String.self, "j") }
            }
            return rows
        }
    }

    func audit() async throws -> [AuditEntry] {
        try await database.pool.withConnection { try AuditLog.recent($0, limit: 500) }
    }

    func close() async { await database.close() }
}
