import Foundation
import VanTestSupport
import Testing
import VanDomain

@Suite struct TimeOrderedIDTests {
    @Test func idsCarryVersionSevenTheMillisecondsAndSortByTime() {
        var generator = SeededGenerator(seed: 3)
        let start = Date(timeIntervalSince1970: 1_795_770_470.123)
        var previous: String?
        for step in 0..<2_000 {
            let date = start.addingTimeInterval(Double(step) * 0.002)  // 2 ms apart: distinct milliseconds despite rounding
            let id = UUID.timeOrdered(at: date, using: &generator)
            let text = id.uuidString.lowercased()
            let hex = text.replacingOccurrences(of: "-", with: "")
            #expect(Array(hex)[12] == "7")  // version
            #expect(["8", "9", "a", "b"].contains(Array(hex)[16]))  // RFC 9562 variant
            #expect(UInt64(hex.prefix(12), radix: 16) == UInt64((date.timeIntervalSince1970 * 1_000).rounded(.down)))
            // Later milliseconds sort after earlier ones, as text and so in a uuid index.
            if let previous { #expect(previous < text) }
            previous = text
        }
    }

    @Test func idsMadeInTheSameMillisecondDiffer() {
        let now = Date()
        let ids = Set((0..<1_000).map { _ in UUID.timeOrdered(at: now) })
        #expect(ids.count == 1_000)
    }
}
