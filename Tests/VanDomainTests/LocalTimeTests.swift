import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct LocalTimeTests {
    @Test(arguments: [("18:00", 18, 0), ("7:30", 7, 30), ("07:30", 7, 30), ("00:00", 0, 0), ("23:59", 23, 59), (" 24:00 ", 24, 0)])
    func parses(text: String, hour: Int, minute: Int) throws {
        let time = try LocalTime(text)
        #expect(time.hour == hour && time.minute == minute)
        #expect(time.minutesSinceMidnight == hour * 60 + minute)
    }

    @Test(arguments: ["", "7", "730", "24:30", "25:00", "12:60", "12:5", "ab:cd", "-1:00", "12:00:00", "123:00", "12:+5", "7.30"])
    func rejectsMalformedText(_ text: String) {
        #expect(throws: ValidationError.self) { try LocalTime(text) }
    }

    @Test func errorsNameTheFieldGiven() {
        do {
            _ = try LocalTime("25:00", field: "start")
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "start")
            #expect(error.reason.contains("0 to 23"))
        }
    }

    @Test func rejectsOutOfRangeComponents() {
        #expect(throws: ValidationError.self) { try LocalTime(hour: 24, minute: 1) }
        #expect(throws: ValidationError.self) { try LocalTime(hour: -1, minute: 0) }
        #expect(throws: ValidationError.self) { try LocalTime(hour: 3, minute: 60) }
    }

    @Test func ordersAndPrints() throws {
        #expect(try LocalTime("7:30") < LocalTime("18:00"))
        #expect(try LocalTime("23:59") < LocalTime.endOfDay)
        #expect(try LocalTime("7:05").description == "07:05")
        #expect(LocalTime.endOfDay.description == "24:00")
        #expect(try json([LocalTime("7:30")]) == #"["07:30"]"#)
        #expect(try decode([LocalTime].self, #"["18:00"]"#) == [try LocalTime("18:00")])
    }

    @Test func windowValidation() throws {
        #expect(throws: ValidationError.self) { try ServiceWindow(weekday: 0, start: "18:00", end: "07:30") }
        #expect(throws: ValidationError.self) { try ServiceWindow(weekday: 8, start: "18:00", end: "07:30") }
        #expect(throws: ValidationError.self) { try ServiceWindow(weekday: 1, start: "24:00", end: "07:30") }
        let overnight = try ServiceWindow(weekday: 7, start: "18:00", end: "07:30")
        #expect(overnight.crossesMidnight)
        #expect(overnight.wallClockMinutes == 13 * 60 + 30)
        let wholeDay = try ServiceWindow(weekday: 2, start: "00:00", end: "24:00")
        #expect(!wholeDay.crossesMidnight)
        #expect(wholeDay.wallClockMinutes == 24 * 60)
        #expect(try ServiceWindow(weekday: 2, start: "18:00", end: "18:00").wallClockMinutes == 24 * 60)
    }
}
