import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

/// America/New_York: clocks spring forward 2026-03-08 02:00 EST → 03:00 EDT (07:00Z)
/// and fall back 2026-11-01 02:00 EDT → 01:00 EST (06:00Z). Both are Sundays.
@Suite struct ServiceHoursDSTTests {
    let hours = ServiceHours.wheelsDefault(timeZone: newYork)

    @Test func springForwardSaturdayNightIsTwelveAndAHalfHours() {
        // Saturday 18:00 EST (23:00Z) → Sunday 07:30 EDT (11:30Z).
        let intervals = hours.openIntervals(from: utc("2026-03-07T17:00:00Z"), to: utc("2026-03-08T16:00:00Z"))
        #expect(intervals == [DateInterval(start: utc("2026-03-07T23:00:00Z"), end: utc("2026-03-08T11:30:00Z"))])
        #expect(intervals.first?.duration == .hours(12.5))
    }

    @Test func fallBackSaturdayNightIsFourteenAndAHalfHours() {
        // Saturday 18:00 EDT (22:00Z) → Sunday 07:30 EST (12:30Z).
        let intervals = hours.openIntervals(from: utc("2026-10-31T16:00:00Z"), to: utc("2026-11-01T17:00:00Z"))
        #expect(intervals == [DateInterval(start: utc("2026-10-31T22:00:00Z"), end: utc("2026-11-01T12:30:00Z"))])
        #expect(intervals.first?.duration == .hours(14.5))
    }

    @Test func nextOpeningAcrossTheChangeIsLocalSixPM() {
        // Saturday 10:00 local, before the change night.
        #expect(hours.nextOpening(after: utc("2026-03-07T15:00:00Z")) == utc("2026-03-07T23:00:00Z"))
        #expect(hours.nextOpening(after: utc("2026-10-31T14:00:00Z")) == utc("2026-10-31T22:00:00Z"))
        // Sunday 10:00 local, after it: 18:00 in the new offset.
        #expect(hours.nextOpening(after: utc("2026-03-08T14:00:00Z")) == utc("2026-03-08T22:00:00Z"))
        #expect(hours.nextOpening(after: utc("2026-11-01T15:00:00Z")) == utc("2026-11-01T23:00:00Z"))
    }

    @Test func closesAtLocalHalfPastSevenAfterTheChange() {
        #expect(hours.nextClosing(after: utc("2026-03-08T03:00:00Z")) == utc("2026-03-08T11:30:00Z"))
        #expect(hours.nextClosing(after: utc("2026-11-01T03:00:00Z")) == utc("2026-11-01T12:30:00Z"))
        #expect(hours.isOpen(at: utc("2026-03-08T11:29:59Z")))
        #expect(!hours.isOpen(at: utc("2026-03-08T11:30:00Z")))
        #expect(hours.isOpen(at: utc("2026-11-01T12:29:59Z")))
        #expect(!hours.isOpen(at: utc("2026-11-01T12:30:00Z")))
    }

    @Test func missingLocalTimeResolvesToTheNextValidInstant() throws {
        // 02:30 does not exist on 2026-03-08; the window opens when clocks jump to 03:00 EDT.
        let hours = ServiceHours(timeZone: newYork, windows: [try ServiceWindow(weekday: 1, start: "02:30", end: "05:00")])
        #expect(hours.nextOpening(after: utc("2026-03-08T05:00:00Z")) == utc("2026-03-08T07:00:00Z"))
        #expect(!hours.isOpen(at: utc("2026-03-08T06:59:59Z")))
        #expect(hours.isOpen(at: utc("2026-03-08T07:00:00Z")))
        let intervals = hours.openIntervals(from: utc("2026-03-08T00:00:00Z"), to: utc("2026-03-09T00:00:00Z"))
        #expect(intervals == [DateInterval(start: utc("2026-03-08T07:00:00Z"), end: utc("2026-03-08T09:00:00Z"))])
    }

    @Test func windowInsideTheSkippedHourDoesNotHappenThatWeek() throws {
        let hours = ServiceHours(timeZone: newYork, windows: [try ServiceWindow(weekday: 1, start: "02:00", end: "02:30")])
        #expect(hours.openIntervals(from: utc("2026-03-08T00:00:00Z"), to: utc("2026-03-09T00:00:00Z")).isEmpty)
        // The following Sunday it runs 02:00–02:30 EDT.
        #expect(hours.nextOpening(after: utc("2026-03-07T17:00:00Z")) == utc("2026-03-15T06:00:00Z"))
    }

    @Test func repeatedLocalTimeUsesItsFirstOccurrence() throws {
        // 01:30 happens twice on 2026-11-01; the window starts at the first (EDT, 05:30Z)
        // and ends at 03:00 EST (08:00Z): 2.5 hours for a 1.5-hour wall-clock window.
        let hours = ServiceHours(timeZone: newYork, windows: [try ServiceWindow(weekday: 1, start: "01:30", end: "03:00")])
        let intervals = hours.openIntervals(from: utc("2026-11-01T00:00:00Z"), to: utc("2026-11-02T00:00:00Z"))
        #expect(intervals == [DateInterval(start: utc("2026-11-01T05:30:00Z"), end: utc("2026-11-01T08:00:00Z"))])
    }

    @Test func wholeWeekendAroundFallBackAddsUp() {
        // Sat 2026-10-31 00:00 EDT → Mon 2026-11-02 00:00 EST is 49 real hours; open are
        // Sat 00:00–07:30 (7.5 h), Sat 18:00–Sun 07:30 (14.5 h), Sun 18:00–Mon 00:00 (6 h).
        let intervals = hours.openIntervals(from: utc("2026-10-31T04:00:00Z"), to: utc("2026-11-02T05:00:00Z"))
        #expect(intervals.map(\.duration) == [.hours(7.5), .hours(14.5), .hours(6)])
    }
}
