import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

/// `vanadmin series` with the real binary on a real database (the machine's clock; the series
/// starts on ``DispatchWorld/day``, a weekday two or more days ahead, and runs weekly three times).
@Suite("vanadmin series list, show, edit, hold and resume (real binary, real database)", .serialized)
struct SeriesCommandTests {
    /// ann1's weekly series at 3 PM on ``DispatchWorld/day`` and the two weeks after: its id.
    static func annsSeries(_ w: DispatchWorld) async throws -> UUID {
        let weekday = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][LocalDate(containing: w.day, in: w.zone).weekday - 1]
        let request = BookingRequest(
            pickupAt: "\(w.dayText)T15:00", pickup: PlaceMatcher.Input(place: "SCL"), dropoff: PlaceMatcher.Input(place: "Davenport"),
            repeats: BookingRequest.Repeat(weekdays: [weekday], until: Self.day(w, plus: 14)))
        let places = try await PlaceStore(pool: w.pool).list()
        let checked = try w.booking.check(request, for: try NetID("ann1"), places: places, now: Date())
        let outcomes = try await w.booking.bookSeries(checked.rides, now: Date())
        guard outcomes.count == 3, outcomes.allSatisfy({ $0.refusalCode == nil }), let id = checked.seriesID else {
            throw TestFailure("the series did not book: \(outcomes)")
        }
        return id
    }

    /// ``DispatchWorld/day`` plus `days`, as YYYY-MM-DD.
    static func day(_ w: DispatchWorld, plus days: Int) -> String {
        LocalDate(dayNumber: LocalDate(containing: w.day, in: w.zone).dayNumber + days).description
    }

    /// The series' rides holding a van: their local pickup times, "YYYY-MM-DD HH:MM".
    static func live(_ w: DispatchWorld, _ id: UUID) async throws -> [String] {
        try await w.pool.withConnection { conn in
            try conn.query(
                """
                SELECT to_char(window_start AT TIME ZONE 'America/New_York', 'YYYY-MM-DD HH24:MI') AS at FROM rides
                WHERE series_id = \(id) AND ride_holds_van(status) ORDER BY window_start
                """
            ).map { try $0.decode(String.self, "at") }
        }
    }

    @Test func theOfficeEditsHoldsAndResumesASeriesForHer() async throws {
        let w = try await DispatchWorld()
        let id = try await Self.annsSeries(w)
        let sid = id.uuidString.lowercased()
        let (d0, d7, d14) = (w.dayText, Self.day(w, plus: 7), Self.day(w, plus: 14))

        let list = try w.vanadmin(["series", "list", "ann1"])
        #expect(list.status == 0 && list.stdout.contains(sid) && list.stdout.contains("15:00"), "\(list.stdout)\(list.stderr)")
        let show = try w.vanadmin(["series", "show", sid, "--json"])
        let shown = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
        #expect(shown?["until"] as? String == d14 && (shown?["rides"] as? [Any])?.count == 3, "\(show.stdout)\(show.stderr)")

        // A check changes nothing; --apply makes it.
        let check = try w.vanadmin(["series", "edit", sid, "--date", d0, "--one", "--time", "16:00", "--as", "dana"])
        #expect(check.status == 0 && check.stdout.contains("checked only"), "\(check.stdout)\(check.stderr)")
        #expect(try await Self.live(w, id) == ["\(d0) 15:00", "\(d7) 15:00", "\(d14) 15:00"])
        let applied = try w.vanadmin(["series", "edit", sid, "--date", d0, "--one", "--time", "16:00", "--apply", "--as", "dana"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try await Self.live(w, id) == ["\(d0) 16:00", "\(d7) 15:00", "\(d14) 15:00"])
        #expect(try await w.value("SELECT count(*) FROM audit_log WHERE action = 'series.edit' AND actor = 'dana'", as: Int.self) == 1)

        // A date that does not fit refuses the apply in one line, and nothing changes.
        _ = try await w.book("bob2", SeriesTemplate.instant(try LocalDate(d7), try LocalTime(hour: 17, minute: 0), in: w.zone))
        let refused = try w.vanadmin(["series", "edit", sid, "--date", d7, "--from", "--time", "17:00", "--apply"])
        #expect(
            refused.status != 0 && refused.stderr.contains("nothing changed") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)"
        )
        #expect(try await Self.live(w, id) == ["\(d0) 16:00", "\(d7) 15:00", "\(d14) 15:00"])
        let chosen = try w.vanadmin(["series", "edit", sid, "--date", d7, "--from", "--time", "17:00", "--choose", "\(d7)=keep", "--apply"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(try await Self.live(w, id) == ["\(d0) 16:00", "\(d7) 15:00", "\(d14) 17:00"])

        // Held and resumed.
        let held = try w.vanadmin(["series", "hold", sid, "--from", d7, "--to", d14, "--as", "dana"])
        #expect(held.status == 0 && held.stdout.contains("2 rides cancelled"), "\(held.stdout)\(held.stderr)")
        #expect(try await Self.live(w, id) == ["\(d0) 16:00"])
        #expect(try await w.value("SELECT count(*) FROM rides WHERE series_id = \(id) AND cancelled_late", as: Int.self) == 0)
        // The template is 5 PM now, which bob2 holds on the first held date: resuming asks her choice.
        let taken = try w.vanadmin(["series", "resume", sid, "--apply"])
        #expect(taken.status != 0 && taken.stderr.contains("nothing changed"), "\(taken.stderr)")
        #expect(try await Self.live(w, id) == ["\(d0) 16:00"])
        let resumed = try w.vanadmin(["series", "resume", sid, "--choose", "\(d7)=15:00", "--apply", "--as", "dana"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try await Self.live(w, id) == ["\(d0) 16:00", "\(d7) 15:00", "\(d14) 17:00"])

        // Errors are one line, exit non-zero.
        let unknown = try w.vanadmin(["series", "show", UUID().uuidString])
        #expect(unknown.status != 0 && unknown.stderr.contains("no series") && unknown.stderr.split(separator: "\n").count == 1)
        let bad = try w.vanadmin(["series", "hold", sid, "--from", d14, "--to", d7])
        #expect(bad.status != 0 && bad.stderr.contains("to is before from") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }
}
