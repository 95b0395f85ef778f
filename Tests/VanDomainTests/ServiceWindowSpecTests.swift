import VanTestSupport
import Testing
@testable import VanDomain

@Suite("Service hour specs")
struct ServiceWindowSpecTests {
    @Test func rangesListsAndMidnight() throws {
        let weekdays = try ServiceWindow.parse(spec: "Mon-Fri 00:00-24:00")
        #expect(weekdays.map(\.weekday) == [2, 3, 4, 5, 6])
        #expect(weekdays.allSatisfy { $0.end.isEndOfDay })
        let nights = try ServiceWindow.parse(spec: "Sat,Sun 18:00-07:30")
        #expect(nights.map(\.weekday) == [7, 1])
        #expect(nights.allSatisfy { $0.crossesMidnight })
        #expect(nights[0].spec == "Sat 18:00-07:30")
        // A range may wrap the week.
        #expect(try ServiceWindow.parse(spec: "Fri-Mon 09:00-17:00").map(\.weekday) == [6, 7, 1, 2])
    }

    @Test(arguments: ["Mon", "Funday 08:00-09:00", "Mon 8-9", "Mon 25:00-26:00", "Mon-Fri 08:00"])
    func badSpecsNameTheProblem(_ spec: String) {
        let error = #expect(throws: ValidationError.self) { try ServiceWindow.parse(spec: spec) }
        #expect(error?.field == "hours")
    }
}
