import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct LocalDateTests {
    @Test(arguments: ["2026-11-26", "2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31", " 2026-01-05 "])
    func parsesAndPrints(_ text: String) throws {
        #expect(try LocalDate(text).description == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: [
        "", "2026-11", "2026-13-01", "2026-02-29", "1900-02-29", "2026-04-31", "26-11-26", "2026/11/26", "2026-1-05", "0000-01-01", "2026-11-00",
    ])
    func rejectsMalformedOrImpossibleDates(_ text: String) {
        #expect(throws: ValidationError.self) { try LocalDate(text) }
    }

    @Test func errorsNameTheFieldGiven() {
        do {
            _ = try LocalDate("2026-02-30", field: "closure")
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "closure")
            #expect(error.reason.contains("1 to 28"))
        }
    }

    @Test func dayNumbersRoundTrip() throws {
        #expect(try LocalDate("1970-01-01").dayNumber == 0)
        #expect(try LocalDate("1969-12-31").dayNumber == -1)
        #expect(try LocalDate("2026-11-23").dayNumber == 20_780)
        for number in stride(from: -800_000, through: 2_900_000, by: 9_973) {
            #expect(LocalDate(dayNumber: number).dayNumber == number)
        }
    }

    @Test func intervalIsTheLocalDay() throws {
        let day = try LocalDate("2026-11-26").interval(in: newYork)
        #expect(day == DateInterval(start: utc("2026-11-26T05:00:00Z"), end: utc("2026-11-27T05:00:00Z")))
        // Fall-back day is 25 hours, spring-forward day 23.
        #expect(try LocalDate("2026-11-01").interval(in: newYork).duration == .hours(25))
        #expect(try LocalDate("2026-03-08").interval(in: newYork).duration == .hours(23))
    }

    @Test func containingAndWeekday() throws {
        #expect(LocalDate(containing: utc("2026-11-27T04:59:59Z"), in: newYork) == (try LocalDate("2026-11-26")))
        #expect(LocalDate(containing: utc("2026-11-27T05:00:00Z"), in: newYork) == (try LocalDate("2026-11-27")))
        #expect(try LocalDate("2026-11-23").weekday == 2)  // Monday
        #expect(try LocalDate("2026-11-21").weekday == 7)  // Saturday
    }

    @Test func ordersAndCodes() throws {
        #expect(try LocalDate("2026-11-26") < LocalDate("2026-12-01"))
        #expect(try json([LocalDate("2026-11-26")]) == #"["2026-11-26"]"#)
        #expect(try decode([LocalDate].self, #"["2026-11-26"]"#) == [try LocalDate("2026-11-26")])
        #expect(throws: ValidationError.self) { try decode(LocalDate.self, #""2026-02-30""#) }
    }
}
