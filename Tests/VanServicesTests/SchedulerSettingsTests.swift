import Foundation
import Testing
import VanServices

/// The scheduler's stored figures: the unhurried margin defaults on, can be turned off, and stays off.
@Suite("Scheduler settings as stored")
struct SchedulerSettingsTests {
    @Test func theUnhurriedMarginDefaultsOnAndOffSurvivesARoundTrip() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(SchedulerSettings.self, from: Data("{}".utf8)).unhurriedMarginMinutes == 5)
        #expect(try decoder.decode(SchedulerSettings.self, from: Data(#"{"unhurriedMarginMinutes": 2}"#.utf8)).unhurriedMarginMinutes == 2)
        #expect(try decoder.decode(SchedulerSettings.self, from: Data(#"{"unhurriedMarginMinutes": null}"#.utf8)).unhurriedMarginMinutes == nil)
        var off = SchedulerSettings()
        off.unhurriedMarginMinutes = nil
        off.windowMinutes = 20
        let again = try decoder.decode(SchedulerSettings.self, from: try JSONEncoder().encode(off))
        #expect(again == off)
    }
}
