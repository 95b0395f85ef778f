import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// A rider's standing series at the console (`/dispatch/riders/{netid}/series`) on the real
/// router and a real database (``ConsoleWorld``): ann1's series Mondays and Wednesdays at 3 PM,
/// Nov 30 to Dec 9, booked through the API; dee1 holds and resumes it for her.
@Suite("The console: a rider's standing series, held and resumed for her")
struct WebDispatchSeriesTests {
    /// Every row of rides, series and holds, as text.
    static func snapshot(_ w: ConsoleWorld) async throws -> String {
        try await w.f.database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT (SELECT coalesce(string_agg(r::text, '|' ORDER BY id), '') FROM rides r) || '#'
                    || (SELECT coalesce(string_agg(s::text, '|' ORDER BY id), '') FROM series s) || '#'
                    || (SELECT coalesce(string_agg(h::text, '|' ORDER BY id), '') FROM series_holds h) AS all_rows
                """
            ).first!.decode(String.self, "all_rows")
        }
    }

    @Test func theDispatcherSeesHerSeriesHoldsItAndResumesItAudited() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let id = try await SeriesRoutesTests.annsSeries(client, ann)
            var jar = WebJar()
            #expect(try await client.webSignIn("dee1", jar: &jar).status == .seeOther)
            let form = try await client.web("/dispatch/book/ann1", jar: &jar)
            #expect(form.body.contains(#"<a href="/dispatch/riders/ann1/series">"#))
            let page = try await client.web("/dispatch/riders/ann1/series", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.body.contains("Weekly rides of <bdi>Ann Rivera</bdi>"))
            #expect(page.body.contains(#"<a href="/dispatch/book" aria-current="page">Book for a rider</a>"#))
            #expect(page.body.contains(#"<h2 id="series-1">Mondays and Wednesdays, picked up at 3:00 PM</h2>"#), "\(page.body)")
            for day in ["Mon Nov 30", "Wed Dec 2", "Mon Dec 7", "Wed Dec 9"] { #expect(page.body.contains(day), "\(day) is not listed") }
            #expect(page.body.contains(#"action="/dispatch/riders/ann1/series/\#(id)/hold""#))
            let csrf = try #require(page.csrf)

            // A backwards range: next to its field, her dates kept, nothing changed.
            let before = try await Self.snapshot(w)
            let hold = "/dispatch/riders/ann1/series/\(id)/hold"
            let backwards = try await client.web(hold, form: [("csrf", csrf), ("from", "2026-12-09"), ("to", "2026-12-01")], jar: &jar)
            #expect(backwards.status == .unprocessableContent)
            #expect(backwards.body.contains("<title>Error: "))
            #expect(backwards.body.contains(#"<p class="error" id="to-error-1"><span class="vh">Error: </span>The last date held is before"#))
            #expect(backwards.body.contains(##"<a href="#to-1">"##))
            #expect(backwards.body.contains(#"id="from-1" name="from" value="2026-12-09""#) && backwards.body.contains(#"value="2026-12-01""#))
            #expect(backwards.body.contains(#"aria-describedby="dates-hint-1 to-error-1" aria-invalid="true""#))
            #expect(try await client.web(hold, form: [("from", "2026-12-07"), ("to", "2026-12-09")], jar: &jar).status == .forbidden)
            #expect(try await Self.snapshot(w) == before)

            // Held: the flash, the hold with its Resume button, the rides cancelled as hers, audited as dee1.
            let held = try await client.web(hold, form: [("csrf", csrf), ("from", "2026-12-07"), ("to", "2026-12-09")], jar: &jar)
            #expect(held.status == .seeOther && held.headers[.location] == "/dispatch/riders/ann1/series")
            let after = try await client.web("/dispatch/riders/ann1/series", jar: &jar)
            #expect(
                after.body.contains(
                    "Held the weekly rides of Ann Rivera from Monday, December 7 to Wednesday, December 9: 2 rides cancelled, not late."),
                "\(after.body)")
            #expect(after.body.contains("Monday, December 7 to Wednesday, December 9: on hold"))
            let resume = try #require(
                after.body.firstMatch(of: /action="(\/dispatch\/riders\/ann1\/series\/[0-9a-f-]+\/holds\/\d+\/resume)"/).map { String($0.1) })
            #expect(try await w.auditActors("series.hold") == [ConsoleWorld.dispatcherActor])
            #expect(try await w.count("SELECT count(*) FROM rides WHERE status = 'cancelled' AND reason LIKE 'held: %' AND NOT cancelled_late") == 2)

            // Resumed: checked first (nothing changes), then made, audited as dee1.
            let held2 = try await Self.snapshot(w)
            let check = try await client.web(resume, form: [("csrf", csrf)], jar: &jar)
            #expect(check.status == .ok)
            #expect(check.body.contains("Resume the weekly rides of <bdi>Ann Rivera</bdi>") && check.body.contains("Every date fits."))
            #expect(check.body.contains("<strong>Monday, December 7</strong>: Fits: 3:00 PM"), "\(check.body)")
            #expect(try await Self.snapshot(w) == held2)
            let resumed = try await client.web(resume + "/apply", form: [("csrf", csrf)], jar: &jar)
            #expect(resumed.status == .seeOther && resumed.headers[.location] == "/dispatch/riders/ann1/series")
            let done = try await client.web("/dispatch/riders/ann1/series", jar: &jar)
            #expect(done.body.contains("Resumed the weekly rides of Ann Rivera: 2 rides booked again."))
            #expect(done.body.contains("resumed early"))
            #expect(try await w.auditActors("series.resume") == [ConsoleWorld.dispatcherActor])
            // Once more: the hold is not open, nothing changes.
            let again = try await client.web(resume + "/apply", form: [("csrf", csrf)], jar: &jar)
            #expect(again.status == .seeOther)
            #expect(try await client.web("/dispatch/riders/ann1/series", jar: &jar).body.contains("is over or was resumed already; nothing changed."))
        }
        await w.f.close()
    }

    @Test func anotherRidersSeriesAStaffAccountAndAnUnknownRiderAreNotFound() async throws {
        let w = try await ConsoleWorld()
        try await w.f.activeRider("bob2")
        _ = try await w.f.whitelist.add(WhitelistPatch(netID: try NetID("bob2")), actor: "office")
        try await w.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let id = try await SeriesRoutesTests.annsSeries(client, ann)
            var jar = WebJar()
            #expect(try await client.webSignIn("dee1", jar: &jar).status == .seeOther)
            let bobs = try await client.web("/dispatch/riders/bob2/series", jar: &jar)
            #expect(bobs.status == .ok && bobs.body.contains("She has no weekly rides."))
            let csrf = try #require(bobs.csrf)
            let before = try await Self.snapshot(w)
            let dates = [("csrf", csrf), ("from", "2026-12-07"), ("to", "2026-12-09")]
            #expect(try await client.web("/dispatch/riders/bob2/series/\(id)/hold", form: dates, jar: &jar).status == .notFound)
            #expect(try await client.web("/dispatch/riders/bob2/series/\(id)/holds/1/resume", form: [("csrf", csrf)], jar: &jar).status == .notFound)
            #expect(try await client.web("/dispatch/riders/ann1/series/not-a-uuid/hold", form: dates, jar: &jar).status == .notFound)
            #expect(try await client.web("/dispatch/riders/ann1/series/\(id)/holds/99/resume", form: [("csrf", csrf)], jar: &jar).status == .notFound)
            for netID in ["nobody9", "dana1", "dee1"] {
                #expect(try await client.web("/dispatch/riders/\(netID)/series", jar: &jar).status == .notFound, "\(netID)")
            }
            #expect(try await Self.snapshot(w) == before)
        }
        await w.f.close()
    }
}
