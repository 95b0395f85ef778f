import Foundation
import Testing
import VanServices
@testable import vand
import VanPostgres

@Suite struct AppConfigurationAccountTests {
    @Test func readsAccountSettingsAndTheHotline() throws {
        let configuration = try AppConfiguration.fromEnvironment([
            "DATABASE_URL": "postgresql://localhost/vand", "VAND_BCRYPT_COST": "10", "VAND_SESSION_IDLE_DAYS": "14",
            "VAND_TEMP_PASSWORD_DAYS": "3", "VAND_HOTLINE": " 607-555-0100 ",
        ])
        #expect(configuration.accounts.bcryptCost == 10)
        #expect(configuration.accounts.sessionIdleTimeout == 14 * 86_400)
        #expect(configuration.accounts.temporaryPasswordLifetime == 3 * 86_400)
        #expect(configuration.hotline == "607-555-0100")
    }

    @Test func defaultsAndHelpListEveryAccountVariable() throws {
        let configuration = try AppConfiguration.fromEnvironment(["DATABASE_URL": "postgresql://localhost/vand"])
        #expect(configuration.accounts == AccountSettings())
        #expect(configuration.hotline == nil)
        for variable in ["VAND_BCRYPT_COST", "VAND_SESSION_IDLE_DAYS", "VAND_TEMP_PASSWORD_DAYS", "VAND_HOTLINE"] {
            #expect(AppConfiguration.helpText.contains(variable))
        }
    }

    @Test func badValuesNameTheVariable() {
        let error = #expect(throws: SettingError.self) {
            try AppConfiguration.fromEnvironment(["DATABASE_URL": "postgresql://localhost/vand", "VAND_SESSION_IDLE_DAYS": "0"])
        }
        #expect(error?.variable == "VAND_SESSION_IDLE_DAYS")
    }
}
