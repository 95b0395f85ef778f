import Foundation
import Testing
import VanServices

/// The scheduler's stored figures: the unhurried margin is off unless set, and reads back as set.
@Suite("Scheduler settings as stored")
struct SchedulerSettingsTests {
    @Test func theUnhurriedMarginIsOffUnlessSetAndSurvivesARoundTrip() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(SchedulerSettings.self, from: Data("{}".utf8)).unhurriedMarginMinutes == nil)
        #expect(try decoder.decode(SchedulerSettings.self, from: Data(#"{"unhurriedMarginMinutes": 2}"#.utf8)).unhurriedMarginMinutes == 2)
        #expect(try decoder.decode(SchedulerSettings.self, from: Data(#"{"unhurriedMarginMinutes": null}"#.utf8)).unhurriedMarginMinutes == nil)
        for margin in [nil, 3] as [Int?] {
            var settings = SchedulerSettings()
            settings.unhurriedMarginMinutes = margin
            settings.windowMinutes = 20
            #expect(try decoder.decode(SchedulerSettings.self, from: try JSONEncoder().encode(settings)) == settings)
        }
    }

    @Test func theRoomKeptForWillCallsIsOffUnlessSetAndSurvivesARoundTrip() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(SchedulerSettings.self, from: Data("{}".utf8)).willCallHoldMinutes == nil)
        #expect(try decoder.decode(SchedulerSettings.self, from: Data("{}".utf8)).learnRoadSpeed, "a stored setting from before learns")
        #expect(try decoder.decode(SchedulerSettings.self, from: Data(#"{"willCallHoldMinutes": 90}"#.utf8)).willCallHoldMinutes == 90)
        var settings = SchedulerSettings()
        settings.willCallHoldMinutes = 45
        #expect(try decoder.decode(SchedulerSettings.self, from: try JSONEncoder().encode(settings)) == settings)
    }
}
