import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

/// The Wheels default hours in an ordinary week: Mon 2026-11-16 … Mon 2026-11-23 (EST, UTC-5).
@Suite struct ServiceHoursTests {
    let hours = ServiceHours.wheelsDefault(timeZone: newYork)

    @Test(arguments: [
        (local(2026, 11, 18, 14), true, "Wednesday afternoon"),
        (local(2026, 11, 20, 23), true, "Friday 23:00"),
        (local(2026, 11, 21, 3), true, "Saturday 03:00, Friday night running on"),
        (local(2026, 11, 21, 7, 29), true, "Saturday 07:29"),
        (local(2026, 11, 21, 7, 30), false, "Saturday 07:30"),
        (local(2026, 11, 21, 12), false, "Saturday noon"),
        (local(2026, 11, 21, 17, 59), false, "Saturday 17:59"),
        (local(2026, 11, 21, 18), true, "Saturday 18:00"),
        (local(2026, 11, 21, 20), true, "Saturday 20:00"),
        (local(2026, 11, 22, 3), true, "Sunday 03:00"),
        (local(2026, 11, 22, 12), false, "Sunday noon"),
        (local(2026, 11, 22, 19), true, "Sunday 19:00"),
        (local(2026, 11, 23, 7), true, "Monday 07:00"),
        (local(2026, 11, 23, 12), true, "Monday noon"),
    ])
    func isOpen(at date: Date, expected: Bool, label: String) {
        #expect(hours.isOpen(at: date) == expected, "\(label)")
    }

    @Test func nextOpeningFromSaturdayMorningIsSaturdayEvening() {
        #expect(hours.nextOpening(after: local(2026, 11, 21, 10)) == utc("2026-11-21T23:00:00Z"))
        #expect(hours.nextOpening(after: local(2026, 11, 22, 7, 30)) == utc("2026-11-22T23:00:00Z"))
    }

    @Test func nextOpeningWhileOpenIsNow() {
        let now = local(2026, 11, 18, 14, 7)
        #expect(hours.nextOpening(after: now) == now)
    }

    @Test func nextClosing() {
        // Open Friday noon: runs through to Saturday 07:30.
        #expect(hours.nextClosing(after: local(2026, 11, 20, 12)) == utc("2026-11-21T12:30:00Z"))
        // Closed Saturday 10:00: the next stretch ends Sunday 07:30.
        #expect(hours.nextClosing(after: local(2026, 11, 21, 10)) == utc("2026-11-22T12:30:00Z"))
        // Sunday night runs into Monday and on to Saturday morning.
        #expect(hours.nextClosing(after: local(2026, 11, 22, 20)) == utc("2026-11-28T12:30:00Z"))
    }

    @Test func openIntervalsForAWeekAreMergedAndClipped() {
        let intervals = hours.openIntervals(from: local(2026, 11, 16, 0), to: local(2026, 11, 23, 0))
        #expect(
            intervals == [
                DateInterval(start: local(2026, 11, 16, 0), end: local(2026, 11, 21, 7, 30)),
                DateInterval(start: local(2026, 11, 21, 18), end: local(2026, 11, 22, 7, 30)),
                DateInterval(start: local(2026, 11, 22, 18), end: local(2026, 11, 23, 0)),
            ])
        let total: TimeInterval = intervals.map(\.duration).reduce(0, +)
        #expect(total == .hours(147))  // 5 × 24 + 7.5 + 13.5 + 6
    }

    @Test func openIntervalsOfAnEmptyOrReversedRangeAreEmpty() {
        let now = local(2026, 11, 18, 14)
        #expect(hours.openIntervals(from: now, to: now).isEmpty)
        #expect(hours.openIntervals(from: now, to: now.addingTimeInterval(-60)).isEmpty)
    }

    @Test func noWindowsMeansNeverOpen() {
        let closed = ServiceHours(timeZone: newYork, windows: [])
        let now = local(2026, 11, 18, 14)
        #expect(!closed.isOpen(at: now))
        #expect(closed.nextOpening(after: now) == nil)
        #expect(closed.nextClosing(after: now) == nil)
        #expect(closed.openIntervals(from: now, to: now.addingTimeInterval(.hours(48))).isEmpty)
    }

    @Test func aroundTheClockNeverCloses() throws {
        let always = ServiceHours(
            timeZone: newYork,
            windows: try (1...7).map { day throws(ValidationError) in try ServiceWindow(weekday: day, start: "00:00", end: "24:00") }
        )
        let now = local(2026, 11, 18, 14)
        #expect(always.isOpen(at: now))
        #expect(always.nextClosing(after: now) == nil)
        #expect(always.openIntervals(from: now, to: now.addingTimeInterval(.hours(200))).count == 1)
    }

    @Test func roundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(hours)
        #expect(try JSONDecoder().decode(ServiceHours.self, from: data) == hours)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""timeZone":"America\/New_York""#))
        #expect(throws: ValidationError.self) {
            try decode(ServiceHours.self, #"{"timeZone":"Mars/Olympus","windows":[]}"#)
        }
    }
}

/// Windows that cross midnight, in UTC so only the window logic is under test.
@Suite struct ServiceWindowCrossingTests {
    let zone = TimeZone(identifier: "UTC")!

    @Test func overnightWindowEndsTheNextMorning() throws {
        // Wednesday 22:00 → Thursday 02:00.
        let hours = ServiceHours(timeZone: zone, windows: [try ServiceWindow(weekday: 4, start: "22:00", end: "02:00")])
        #expect(!hours.isOpen(at: utc("2026-11-18T21:59:59Z")))
        #expect(hours.isOpen(at: utc("2026-11-18T22:00:00Z")))
        #expect(hours.isOpen(at: utc("2026-11-19T01:59:59Z")))
        #expect(!hours.isOpen(at: utc("2026-11-19T02:00:00Z")))
        #expect(hours.nextOpening(after: utc("2026-11-19T03:00:00Z")) == utc("2026-11-25T22:00:00Z"))
        #expect(hours.nextClosing(after: utc("2026-11-19T00:00:00Z")) == utc("2026-11-19T02:00:00Z"))
        // Asked from inside the window, the interval starts at the range start.
        #expect(
            hours.openIntervals(from: utc("2026-11-19T01:00:00Z"), to: utc("2026-11-20T00:00:00Z"))
                == [DateInterval(start: utc("2026-11-19T01:00:00Z"), end: utc("2026-11-19T02:00:00Z"))]
        )
    }

    @Test func equalStartAndEndIsAFullDay() throws {
        let hours = ServiceHours(timeZone: zone, windows: [try ServiceWindow(weekday: 4, start: "18:00", end: "18:00")])
        #expect(
            hours.openIntervals(from: utc("2026-11-16T00:00:00Z"), to: utc("2026-11-23T00:00:00Z"))
                == [DateInterval(start: utc("2026-11-18T18:00:00Z"), end: utc("2026-11-19T18:00:00Z"))]
        )
    }

    @Test func midnightToMidnightIsTheWholeDayEitherWay() throws {
        for end in ["24:00", "00:00"] {
            let hours = ServiceHours(timeZone: zone, windows: [try ServiceWindow(weekday: 4, start: "00:00", end: end)])
            #expect(
                hours.openIntervals(from: utc("2026-11-16T00:00:00Z"), to: utc("2026-11-23T00:00:00Z"))
                    == [DateInterval(start: utc("2026-11-18T00:00:00Z"), end: utc("2026-11-19T00:00:00Z"))]
            )
        }
    }

    @Test func touchingAndOverlappingWindowsMerge() throws {
        let hours = ServiceHours(
            timeZone: zone,
            windows: [
                try ServiceWindow(weekday: 3, start: "00:00", end: "24:00"),  // Tuesday
                try ServiceWindow(weekday: 4, start: "00:00", end: "06:00"),  // Wednesday morning
                try ServiceWindow(weekday: 3, start: "20:00", end: "03:00"),  // Tuesday night, inside both
            ])
        #expect(
            hours.openIntervals(from: utc("2026-11-16T00:00:00Z"), to: utc("2026-11-23T00:00:00Z"))
                == [DateInterval(start: utc("2026-11-17T00:00:00Z"), end: utc("2026-11-18T06:00:00Z"))]
        )
        // Midnight between the two days is not an opening: service was already running.
        #expect(hours.nextOpening(after: utc("2026-11-18T00:00:00Z")) == utc("2026-11-18T00:00:00Z"))
        #expect(hours.nextClosing(after: utc("2026-11-17T12:00:00Z")) == utc("2026-11-18T06:00:00Z"))
    }
}
