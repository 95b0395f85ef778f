import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

/// `ServiceTime` reads and writes times by arithmetic; Foundation's formatters are the reference.
@Suite struct ServiceTimeTests {
    static let zones = ["America/New_York", "UTC", "Asia/Kolkata", "America/St_Johns", "Australia/Lord_Howe", "Europe/London", "Pacific/Chatham"]
        .map { TimeZone(identifier: $0)! }

    /// Random instants between 2000 and 2040, with a share on the minutes around offset changes.
    static func instants(_ count: Int, zone: TimeZone, seed: UInt64) -> [Date] {
        var generator = SeededGenerator(seed: seed)
        var dates: [Date] = []
        var transition = Date(timeIntervalSince1970: 946_684_800)
        var transitions: [Date] = []
        while let next = zone.nextDaylightSavingTimeTransition(after: transition), next.timeIntervalSince1970 < 2_208_988_800 {
            transitions.append(next)
            transition = next
        }
        for index in 0..<count {
            if index % 4 == 0, let near = transitions.randomElement(using: &generator) {
                dates.append(near.addingTimeInterval(TimeInterval(Int.random(in: -4 * 3_600...4 * 3_600, using: &generator) / 60 * 60)))
            } else {
                dates.append(Date(timeIntervalSince1970: TimeInterval(Int.random(in: 946_684_800...2_208_988_800, using: &generator))))
            }
        }
        return dates
    }

    @Test(arguments: zones) func formatMatchesISO8601DateFormatter(zone: TimeZone) {
        let clock = ServiceTime(timeZone: zone)
        let reference = ISO8601DateFormatter()
        reference.formatOptions = [.withInternetDateTime]
        reference.timeZone = zone
        for date in Self.instants(3_000, zone: zone, seed: 7) {
            #expect(clock.format(date) == reference.string(from: date))
        }
    }

    /// Every way of writing a time for a person is the formatter's text: the clock time done
    /// by hand, the rest from the formatter kept per thread (fractional seconds included).
    @Test(arguments: zones) func wordsMatchAFreshFormatter(zone: TimeZone) {
        let clock = ServiceTime(timeZone: zone)
        for date in Self.instants(400, zone: zone, seed: 11).map({ $0.addingTimeInterval(0.75) }) {
            for words in ServiceTime.Words.allCases {
                #expect(clock.text(date, words) == ServiceTime.formatter(words, zone).string(from: date), "\(words) of \(date)")
            }
        }
    }

    /// The offsets remembered per hour are the zone's own, second by second around every
    /// transition from 1880 to 2040 (odd historical offsets such as Amsterdam's +00:19:32 too),
    /// asked in an order that fills the memory before and after each transition.
    @Test(arguments: zones + [TimeZone(identifier: "Europe/Amsterdam")!, TimeZone(identifier: "Africa/Monrovia")!])
    func rememberedOffsetsAreTheZonesOwn(zone: TimeZone) {
        let offsets = ZoneOffsets(zone)
        var transitions: [Date] = []
        var from = Date(timeIntervalSince1970: -2_840_140_800)  // 1880
        while let next = zone.nextDaylightSavingTimeTransition(after: from), next.timeIntervalSince1970 < 2_208_988_800 {
            transitions.append(next)
            from = next
        }
        var checked = 0
        for transition in transitions {
            // Hours either side first (remembered), then every 7 s across the transition's own hour.
            for step in stride(from: -3 * 3_600, through: 3 * 3_600, by: 1_800) + Array(stride(from: -3_600, through: 3_600, by: 7)) + [-1, 0, 1] {
                let date = transition.addingTimeInterval(TimeInterval(step))
                #expect(offsets.secondsFromGMT(for: date) == zone.secondsFromGMT(for: date), "\(date) in \(zone.identifier)")
                checked += 1
            }
        }
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2_840_140_800...2_208_988_800, using: &generator))
            #expect(offsets.secondsFromGMT(for: date) == zone.secondsFromGMT(for: date))
        }
        // Monrovia's change of standard offset, -00:44:30 to +00:00 on 1972-01-07 (not a
        // daylight-saving transition), second by second from an hour before.
        let monrovia = 63_593_070
        let wrong = (monrovia - 3_600...monrovia + 3_600).filter { second in
            let date = Date(timeIntervalSince1970: TimeInterval(second))
            return offsets.secondsFromGMT(for: date) != zone.secondsFromGMT(for: date)
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3)) in \(zone.identifier)")
        // The zones with daylight saving did have transitions to check.
        #expect(checked > 0 || ["GMT", "UTC", "Asia/Kolkata", "Africa/Monrovia"].contains(zone.identifier))
    }

    @Test(arguments: zones) func parseMatchesTheFormattersForEveryShape(zone: TimeZone) {
        let clock = ServiceTime(timeZone: zone)
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = zone
        var fast = 0
        for date in Self.instants(1_500, zone: zone, seed: 11) {
            local.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
            let seconds = local.string(from: date)
            local.dateFormat = "yyyy-MM-dd'T'HH:mm"
            let minutes = local.string(from: date)
            let texts = [
                clock.format(date), seconds, minutes,
                seconds.replacingOccurrences(of: "T", with: " "), minutes.replacingOccurrences(of: "T", with: " "),
                ServiceTime(timeZone: TimeZone(identifier: "UTC")!).format(date),
            ]
            for text in texts {
                let expected = clock.parseWithFormatters(text)
                #expect(expected != nil, "the formatters read \(text)")
                if let quick = clock.parseFast(text) {
                    fast += 1
                    #expect(quick == expected, "\(text) in \(zone.identifier)")
                }
                #expect((try? clock.parse(text, field: "t")) == expected)
            }
        }
        // Almost every text takes the fast path; only local times near an offset change do not.
        #expect(fast > 1_500 * 6 * 8 / 10)
    }

    @Test func localTimesNearAnOffsetChangeGoToTheFormatter() throws {
        let clock = ServiceTime(timeZone: newYork)
        // 2026-03-08 02:30 does not exist in New York; 2026-11-01 01:30 happens twice.
        #expect(clock.parseFast("2026-03-08T02:30") == nil)
        #expect(clock.parseFast("2026-11-01T01:30") == nil)
        #expect(try clock.parse("2026-11-01T01:30", field: "t") == clock.parseWithFormatters("2026-11-01T01:30"))
        #expect(clock.parseFast("2026-11-23T15:00") == utc("2026-11-23T20:00:00Z"))
        #expect(clock.parseFast("2026-07-01 09:05:30") == utc("2026-07-01T13:05:30Z"))
    }

    @Test func oddOrWrongTextIsNotReadByTheFastPath() throws {
        let clock = ServiceTime(timeZone: newYork)
        for text in [
            "2026-02-30T10:00", "2026-13-01T10:00", "2026-11-23T24:00", "2026-11-23T15:60", "2026-11-23X15:00",
            "2026-11-23T15:00Z", "2026-11-23 15:00:00Z", "2026-11-23T15:00:00+5:00", "2026-11-23T15:00:00.5Z",
            "２０２６-11-23T15:00", "2026-11-23T15:00:00-05:00x", "",
        ] {
            #expect(clock.parseFast(text) == nil, "\(text)")
        }
        #expect(try clock.parse("2026-11-23T15:00:00.250-05:00", field: "t") == utc("2026-11-23T20:00:00Z").addingTimeInterval(0.25))
        #expect(throws: ValidationError.self) { try clock.parse("tomorrow at 3", field: "pickup_at") }
        #expect(throws: ValidationError.self) { try clock.parse("2026-02-30T10:00", field: "pickup_at") }
    }
}
