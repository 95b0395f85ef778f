import Foundation
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import VanServices

/// rider0's weekly series, Mondays and Wednesdays at 4:30 PM from SCL to SML, Nov 23 to Dec 9
/// (six rides), booked through the booking rules and service on ``BookingFixture``'s one van
/// that carries one rider at a time: any other rider at a time takes it.
struct SeriesWorld {
    let f: BookingFixture
    let service: SeriesService
    let id: UUID
    let rider = try! NetID("rider0")
    var zone: TimeZone { f.zone }

    init() async throws {
        f = try await BookingFixture()
        service = SeriesService(pool: f.db.pool, booking: f.booking)
        let request = BookingRequest(
            pickupAt: "2026-11-23T16:30", pickup: PlaceMatcher.Input(lat: f.scl.latitude, lon: f.scl.longitude),
            dropoff: PlaceMatcher.Input(lat: f.sml.latitude, lon: f.sml.longitude),
            repeats: BookingRequest.Repeat(weekdays: ["mon", "wed"], until: "2026-12-09"))
        let checked = try f.booking.check(request, for: rider, places: [], now: f.now)
        let outcomes = try await f.booking.bookSeries(checked.rides, now: f.now)
        guard outcomes.allSatisfy({ $0.refusalCode == nil }), let id = checked.seriesID else {
            throw TestFailure("the series did not book: \(outcomes)")
        }
        self.id = id
    }

    /// `date` (YYYY-MM-DD) at hh:mm in New York.
    func at(_ date: String, _ hour: Int, _ minute: Int = 0) -> Date {
        SeriesTemplate.instant(try! LocalDate(date), try! LocalTime(hour: hour, minute: minute), in: zone)
    }

    /// Another rider's ride at `date` hh:mm, taking the van then.
    func takeTheVan(_ date: String, _ hour: Int, _ minute: Int = 0, rider: Int = 1) async throws {
        guard case .booked = try await f.booking.book(f.request(rider, at: at(date, hour, minute)), now: f.now) else {
            throw TestFailure("rider\(rider) could not take the van on \(date)")
        }
    }

    /// The series' rides: (local date, local time, status, reason), soonest first.
    func rides() async throws -> [(date: String, time: String, status: String, reason: String?)] {
        try await f.db.pool.withConnection { conn in
            try conn.query(
                """
                SELECT to_char(window_start AT TIME ZONE 'America/New_York', 'YYYY-MM-DD') AS day,
                       to_char(window_start AT TIME ZONE 'America/New_York', 'HH24:MI') AS at, status, reason
                FROM rides WHERE series_id = \(id) ORDER BY window_start, status
                """
            ).map {
                (
                    try $0.decode(String.self, "day"), try $0.decode(String.self, "at"), try $0.decode(String.self, "status"),
                    try $0.decode(String?.self, "reason")
                )
            }
        }
    }

    /// The series' rides holding the van: "date time".
    func live() async throws -> [String] {
        try await rides().filter { $0.status == "pending" || $0.status == "approved" }.map { "\($0.date) \($0.time)" }
    }

    /// Every row of `rides`, `series`, `series_holds` and `ride_events`, as text: equal before and after means nothing changed.
    func snapshot() async throws -> String {
        try await f.db.pool.withConnection { conn in
            try conn.query(
                """
                SELECT (SELECT coalesce(string_agg(r::text, '|' ORDER BY id), '') FROM rides r) || '#'
                    || (SELECT coalesce(string_agg(s::text, '|' ORDER BY id), '') FROM series s) || '#'
                    || (SELECT coalesce(string_agg(h::text, '|' ORDER BY id), '') FROM series_holds h) || '#'
                    || (SELECT count(*) FROM ride_events)::text || '#' || (SELECT count(*) FROM booking_refusals)::text AS all_rows
                """
            ).first!.decode(String.self, "all_rows")
        }
    }

    /// How many of the rider's inbox deliveries there are for events of `kind`.
    func told(_ kind: String) async throws -> Int {
        try await f.count(
            """
            SELECT count(*) FROM deliveries d JOIN ride_events e ON e.id = d.event_id
            WHERE d.sink = 'rider' AND e.kind = \(kind) AND e.net_id = 'rider0'
            """)
    }
}

@Suite("Standing series: edits, holds, resumes, closed days")
struct SeriesServiceTests {
    @Test func aNewSeriesGetsItsRecordWithThePatternAndTemplate() async throws {
        let w = try await SeriesWorld()
        let detail = try await w.service.show(w.id, for: w.rider, now: w.f.now)
        #expect(detail.series.weekdays == [2, 4])
        #expect(detail.series.until == (try LocalDate("2026-12-09")))
        #expect(detail.series.template.time.description == "16:30")
        #expect(detail.series.template.promise == .pickup)
        #expect(detail.rides.count == 6)
        #expect(detail.holds.isEmpty)
        await w.f.db.close()
    }

    @Test func aSeriesBookedBeforeItsRecordGetsOneFromItsRides() async throws {
        let w = try await SeriesWorld()
        try await w.f.db.pool.withConnection { try $0.execute("DELETE FROM series") }
        let all = try await w.service.list(for: w.rider)
        #expect(all.map(\.id) == [w.id])
        #expect(all.first?.weekdays == [2, 4] && all.first?.template.time.description == "16:30")
        #expect(try await w.f.count("SELECT count(*) FROM series") == 1)
        await w.f.db.close()
    }

    @Test func editingOneDateChangesThatRideOnlyAndTellsHer() async throws {
        let w = try await SeriesWorld()
        let edit = SeriesEditRequest(scope: "one", date: "2026-11-25", time: "17:15")
        let answer = try await w.service.edit(w.id, for: w.rider, edit, apply: true, now: w.f.now)
        #expect(answer.applied)
        #expect(answer.dates.map(\.date.description) == ["2026-11-25"])
        #expect(
            try await w.live() == [
                "2026-11-23 16:30", "2026-11-25 17:15", "2026-11-30 16:30", "2026-12-02 16:30", "2026-12-07 16:30", "2026-12-09 16:30",
            ])
        let cancelled = try await w.rides().filter { $0.status == "cancelled" }
        #expect(cancelled.count == 1 && cancelled[0].date == "2026-11-25" && cancelled[0].reason?.hasPrefix("changed") == true)
        // Not a late cancellation, and the template stays.
        #expect(try await w.f.count("SELECT count(*) FROM rides WHERE cancelled_late") == 0)
        #expect(try await w.service.show(w.id, for: w.rider, now: w.f.now).series.template.time.description == "16:30")
        #expect(try await w.told("cancelled_by_rider") == 1)
        #expect(try await w.told("created") == 1)
        await w.f.db.close()
    }

    @Test func editingAllFromADateChangesEveryLaterRideAndTheTemplate() async throws {
        let w = try await SeriesWorld()
        let edit = SeriesEditRequest(scope: "from", date: "2026-12-01", time: "09:00", promise: "arrive_by")
        let answer = try await w.service.edit(w.id, for: w.rider, edit, apply: true, now: w.f.now)
        #expect(answer.applied && answer.dates.count == 3)
        let live = try await w.live()
        #expect(live.map { String($0.prefix(10)) } == ["2026-11-23", "2026-11-25", "2026-11-30", "2026-12-02", "2026-12-07", "2026-12-09"])
        #expect(live.prefix(3).allSatisfy { $0.hasSuffix("16:30") } && live.dropFirst(3).allSatisfy { !$0.hasSuffix("16:30") }, "\(live)")
        let promises = try await w.f.db.pool.withConnection { conn in
            try conn.query(
                "SELECT promise FROM rides WHERE series_id = \(w.id) AND status = 'pending' AND pickup_at > \(w.at("2026-12-01", 0)) "
            ).map { try $0.decode(String.self, "promise") }
        }
        #expect(promises == ["arrive_by", "arrive_by", "arrive_by"])
        let template = try await w.service.show(w.id, for: w.rider, now: w.f.now).series.template
        #expect(template.time.description == "09:00" && template.promise == .arriveBy)
        await w.f.db.close()
    }

    @Test func aDateThatNoLongerFitsIsListedWithSuggestionsAndNothingChanges() async throws {
        let w = try await SeriesWorld()
        try await w.takeTheVan("2026-12-02", 17, 0)
        let before = try await w.snapshot()
        let edit = SeriesEditRequest(scope: "from", date: "2026-11-30", time: "17:00")
        let check = try await w.service.edit(w.id, for: w.rider, edit, apply: false, now: w.f.now)
        #expect(!check.applied)
        #expect(check.dates.count == 4)
        let conflict = try #require(check.conflicts.first)
        #expect(check.conflicts.count == 1 && conflict.date.description == "2026-12-02")
        guard case .conflict(let outcome) = conflict.result, case .refused(let feasibility, let sentence) = outcome else {
            Issue.record("expected a refusal, got \(conflict.result)"); return
        }
        #expect(!feasibility.suggestions.isEmpty)
        #expect(sentence.contains("5:00 PM"))
        #expect(try await w.snapshot() == before, "a check changes nothing")
        // Applying without a choice for the taken date is refused whole: nothing changes.
        let refused = try await w.service.edit(w.id, for: w.rider, edit, apply: true, now: w.f.now)
        #expect(!refused.applied && refused.conflicts.count == 1)
        #expect(try await w.snapshot() == before, "a refused apply changes nothing")
        await w.f.db.close()
    }

    @Test func herChoicesAreApplied() async throws {
        let w = try await SeriesWorld()
        try await w.takeTheVan("2026-12-02", 17, 0)
        try await w.takeTheVan("2026-12-07", 17, 0)
        let check = try await w.service.edit(
            w.id, for: w.rider, SeriesEditRequest(scope: "from", date: "2026-11-30", time: "17:00"), apply: false, now: w.f.now)
        let suggested = try #require(check.conflicts.first { $0.date.description == "2026-12-07" })
        guard case .conflict(.refused(let feasibility, _)) = suggested.result, let later = feasibility.suggestions.last else {
            Issue.record("no suggestion for Dec 7"); return
        }
        let time = ServiceTime(timeZone: w.zone).text(later.asked, .formTime)
        let edit = SeriesEditRequest(scope: "from", date: "2026-11-30", time: "17:00", choices: ["2026-12-02": "keep", "2026-12-07": time])
        let answer = try await w.service.edit(w.id, for: w.rider, edit, apply: true, now: w.f.now)
        #expect(answer.applied)
        #expect(
            try await w.live() == [
                "2026-11-23 16:30", "2026-11-25 16:30", "2026-11-30 17:00", "2026-12-02 16:30", "2026-12-07 \(time)", "2026-12-09 17:00",
            ])
        // Skipping a date cancels its ride.
        let skipped = try await w.service.edit(
            w.id, for: w.rider, SeriesEditRequest(scope: "one", date: "2026-12-02", time: "17:00", choices: ["2026-12-02": "skip"]), apply: true,
            now: w.f.now)
        let afterSkip = try await w.live()
        #expect(skipped.applied && !afterSkip.contains { $0.hasPrefix("2026-12-02") })
        await w.f.db.close()
    }

    @Test func aHoldCancelsTheRangeNotLateAndResumingBooksTheRestAgain() async throws {
        let w = try await SeriesWorld()
        let held = try await w.service.hold(w.id, for: w.rider, from: "2026-11-30", to: "2026-12-06", now: w.f.now)
        #expect(held.cancelled.count == 2)
        #expect(held.cancelled.allSatisfy { $0.status == .cancelled && $0.reason == "held: Nov 30 to Dec 6" })
        #expect(try await w.live() == ["2026-11-23 16:30", "2026-11-25 16:30", "2026-12-07 16:30", "2026-12-09 16:30"])
        #expect(try await w.f.count("SELECT count(*) FROM rides WHERE cancelled_late OR cancelled_by <> 'rider'") == 0)
        #expect(try await w.told("cancelled_by_rider") == 2)
        // Someone takes Dec 2 meanwhile: resuming lists it, and changes nothing until she chooses.
        try await w.takeTheVan("2026-12-02", 16, 30)
        let before = try await w.snapshot()
        let check = try await w.service.resume(w.id, hold: held.hold.id, for: w.rider, choices: [:], apply: false, now: w.f.now)
        #expect(check.dates.map(\.date.description) == ["2026-11-30", "2026-12-02"])
        #expect(check.conflicts.map(\.date.description) == ["2026-12-02"])
        let refused = try await w.service.resume(w.id, hold: held.hold.id, for: w.rider, choices: [:], apply: true, now: w.f.now)
        #expect(!refused.applied)
        #expect(try await w.snapshot() == before)
        let resumed = try await w.service.resume(
            w.id, hold: held.hold.id, for: w.rider, choices: ["2026-12-02": "skip"], apply: true, now: w.f.now)
        #expect(resumed.applied)
        #expect(try await w.live() == ["2026-11-23 16:30", "2026-11-25 16:30", "2026-11-30 16:30", "2026-12-07 16:30", "2026-12-09 16:30"])
        let holds = try await w.service.show(w.id, for: w.rider, now: w.f.now).holds
        #expect(holds.count == 1 && holds[0].resumedAt != nil)
        // A resumed hold is not open any more.
        await #expect(throws: SeriesError.holdNotOpen(id: held.hold.id, resumed: true)) {
            _ = try await w.service.resume(w.id, hold: held.hold.id, for: w.rider, choices: [:], apply: true, now: w.f.now)
        }
        await w.f.db.close()
    }

    @Test func closedDaysAreNeverBookedAndEditsAndResumesSkipThem() async throws {
        let f = try await BookingFixture()
        let calendar = ServiceCalendarStore(pool: f.db.pool, timeZone: f.zone)
        try await calendar.addClosure(try LocalDate("2026-11-25"), reason: "Thanksgiving break", actor: "office")
        // Booking a series: the closed Wednesday is refused as closed, never booked.
        let request = BookingRequest(
            pickupAt: "2026-11-23T16:30", pickup: PlaceMatcher.Input(lat: f.scl.latitude, lon: f.scl.longitude),
            dropoff: PlaceMatcher.Input(lat: f.sml.latitude, lon: f.sml.longitude),
            repeats: BookingRequest.Repeat(weekdays: ["mon", "wed"], until: "2026-12-09"))
        let rider = try NetID("rider0")
        let checked = try f.booking.check(request, for: rider, places: [], now: f.now)
        let outcomes = try await f.booking.bookSeries(checked.rides, now: f.now)
        #expect(outcomes.map { $0.refusalCode ?? "booked" } == ["booked", "closed", "booked", "booked", "booked", "booked"])
        let service = SeriesService(pool: f.db.pool, booking: f.booking)
        let id = try #require(checked.seriesID)
        // A closure after booking: an edit from a date lists the closed day and leaves it.
        try await calendar.addClosure(try LocalDate("2026-12-02"), reason: nil, actor: "office")
        let edit = try await service.edit(
            id, for: rider, SeriesEditRequest(scope: "from", date: "2026-11-30", time: "16:00"), apply: true, now: f.now)
        #expect(edit.applied)
        #expect(
            edit.dates.map { "\($0.date) \(Self.result($0.result))" } == [
                "2026-11-30 fits", "2026-12-02 closed", "2026-12-07 fits", "2026-12-09 fits",
            ])
        // Held over the closed day and resumed: the closed day is not booked.
        let held = try await service.hold(id, for: rider, from: "2026-12-01", to: "2026-12-08", now: f.now)
        let resumed = try await service.resume(id, hold: held.hold.id, for: rider, choices: [:], apply: true, now: f.now)
        #expect(resumed.dates.map { "\($0.date) \(Self.result($0.result))" } == ["2026-12-02 closed", "2026-12-07 fits"])
        let detail = try await service.show(id, for: rider, now: f.now)
        #expect(detail.closedDays.keys.map(\.description).sorted() == ["2026-11-25", "2026-12-02"])
        await f.db.close()
    }

    @Test func anotherRidersSeriesIsNotFound() async throws {
        let w = try await SeriesWorld()
        let other = try NetID("rider1")
        await #expect(throws: SeriesError.notFound) { _ = try await w.service.show(w.id, for: other, now: w.f.now) }
        await #expect(throws: SeriesError.notFound) {
            _ = try await w.service.edit(
                w.id, for: other, SeriesEditRequest(scope: "one", date: "2026-11-25", time: "17:00"), apply: true, now: w.f.now)
        }
        await #expect(throws: SeriesError.notFound) {
            _ = try await w.service.hold(w.id, for: other, from: "2026-11-30", to: "2026-12-06", now: w.f.now)
        }
        #expect(try await w.service.list(for: other).isEmpty)
        #expect(try await w.live().count == 6)
        await w.f.db.close()
    }

    @Test func badInputNamesEachField() async throws {
        let w = try await SeriesWorld()
        do {
            _ = try await w.service.edit(
                w.id, for: w.rider, SeriesEditRequest(scope: "some", date: "2026-11-01", time: "25:00", promise: "soon", choices: ["x": "maybe"]),
                apply: true, now: w.f.now)
            Issue.record("expected InvalidFields")
        } catch let error as InvalidFields {
            #expect(Set(error.errors.map(\.field)) == ["scope", "date", "time", "promise", "choices.x"])
        }
        do {
            _ = try await w.service.hold(w.id, for: w.rider, from: "2026-12-06", to: "2026-11-30", now: w.f.now)
            Issue.record("expected InvalidFields")
        } catch let error as InvalidFields {
            #expect(error.errors.map(\.field) == ["to"])
        }
        #expect(try await w.live().count == 6)
        await w.f.db.close()
    }

    static func result(_ result: SeriesDateAnswer.Result) -> String {
        switch result {
        case .fits: "fits"
        case .conflict: "conflict"
        case .skipped: "skipped"
        case .kept: "kept"
        case .closed: "closed"
        }
    }
}
