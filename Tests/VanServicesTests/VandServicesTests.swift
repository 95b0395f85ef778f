import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// One set of settings, one wiring: every setting the services run by is read by
/// ``VandSettings/fromEnvironment(_:)``, and ``VandServices`` hands each service its part.
@Suite("The settings are read in one place and wire every service")
struct VandServicesTests {
    static let environment = [
        "DATABASE_URL": "postgresql://localhost/vand", "VAND_TIMEZONE": "America/Chicago", "VAND_HOTLINE": " 607-555-0100 ",
        "VAND_AUTO_APPROVE": "true", "VAND_BOOKING_HORIZON_DAYS": "7", "VAND_NO_SHOW_WAIT": "120", "VAND_BCRYPT_COST": "10",
        "VAND_REMINDER_LEAD": "20",
    ]

    @Test func theReaderReadsEveryPart() throws {
        let settings = try VandSettings.fromEnvironment(Self.environment)
        #expect(settings.timeZone.identifier == "America/Chicago")
        #expect(settings.hotline == "607-555-0100")
        #expect(settings.booking.autoApprove)
        #expect(settings.booking.policy.horizon == 7 * 86_400)
        #expect(settings.road.noShowWait == 120)
        #expect(settings.accounts.bcryptCost == 10)
        #expect(settings.events.reminderLead == 20 * 60)
    }

    @Test func aBadValueAnywhereNamesItsVariable() {
        for (variable, value) in [("VAND_NO_SHOW_WAIT", "soon"), ("VAND_HOTLINE", "\u{7}"), ("VAND_TIMEZONE", "Mars/Olympus")] {
            var environment = Self.environment
            environment[variable] = value
            let error = #expect(throws: SettingError.self) { try VandSettings.fromEnvironment(environment) }
            #expect(error?.variable == variable)
        }
    }

    @Test func eachServiceRunsByItsPart() async throws {
        let f = try await BookingFixture()
        var settings = try VandSettings.fromEnvironment(Self.environment)
        settings.timeZone = f.zone
        let services = VandServices(settings: settings, pool: f.db.pool)
        #expect(services.booking.rules.autoApprove)
        #expect(services.booking.rules.policy.horizon == 7 * 86_400)
        #expect(services.dispatch.policy.horizon == 7 * 86_400)
        #expect(services.road.settings.noShowWait == 120)
        #expect(services.eta.settings.reminderLead == 20 * 60)
        await f.db.close()
    }
}
