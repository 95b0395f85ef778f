import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// The rider's series page (`/series/{id}`) and its forms on the real router and a real database
/// (clock: Sunday 2026-11-29 07:00 New York; one van carrying one rider at a time): ann1's series
/// Mondays and Wednesdays at 3 PM, Nov 30 to Dec 9 (four rides), booked through the API.
@Suite("The rider's series page: pattern, dates, holds; edits checked then confirmed; holds")
struct WebSeriesTests {
    /// A signed-in rider's browser on `client`: its jar and the series page's CSRF token.
    static func signedIn(_ client: some TestClientProtocol, _ netID: String, page: String) async throws -> (jar: WebJar, csrf: String) {
        var jar = WebJar()
        #expect(try await client.webSignIn(netID, jar: &jar).status == .seeOther)
        let csrf = try #require(try await client.web(page, jar: &jar).csrf)
        return (jar, csrf)
    }

    /// The times of ann's live rides of the series on `day` (New York), as "HH:MM".
    static func live(_ w: BookingWorld, _ day: String) async throws -> [String] {
        try await w.f.database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT to_char(window_start AT TIME ZONE 'America/New_York', 'HH24:MI') AS at FROM rides
                WHERE series_id IS NOT NULL AND net_id = 'ann1' AND status IN ('pending', 'approved')
                  AND (window_start AT TIME ZONE 'America/New_York')::date = \(day)::date ORDER BY 1
                """
            ).map { try $0.decode(String.self, "at") }
        }
    }

    /// The page's field error for `field`, if any.
    static func fieldError(_ body: String, _ field: String) -> String? {
        guard
            let range = body.range(
                of: #"<p class="error" id="\#(field)-error"><span class="vh">Error: </span>[^<]*</p>"#, options: .regularExpression)
        else { return nil }
        return String(body[range]).replacing(/<[^>]*>/, with: "").replacingOccurrences(of: "Error: ", with: "")
    }

    @Test func thePageShowsThePatternTheDatesAndTheHolds() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let id = try await SeriesRoutesTests.annsSeries(client, ann)
            var (jar, csrf) = try await Self.signedIn(client, "ann1", page: "/series/\(id)")
            let page = try await client.web("/series/\(id)", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.body.contains("<h1>Your weekly rides</h1>"))
            #expect(page.body.contains("Mondays and Wednesdays, picked up at 3:00 PM, from <bdi>"), "\(page.body)")
            #expect(page.body.contains("until Wednesday, December 9."))
            for day in ["Mon Nov 30", "Wed Dec 2", "Mon Dec 7", "Wed Dec 9"] { #expect(page.body.contains(day), "\(day) is not listed") }
            #expect(!page.body.contains("<h2>Holds</h2>"))
            #expect(page.body.contains(#"<form method="post" action="/series/\#(id)/edit""#))
            #expect(page.body.contains(#"<form method="post" action="/series/\#(id)/hold""#))

            let held = try await client.web("/series/\(id)/hold", form: [("csrf", csrf), ("from", "2026-12-07"), ("to", "2026-12-09")], jar: &jar)
            #expect(held.status == .seeOther && held.headers[.location] == "/series/\(id)?done=held&n=2")
            let after = try await client.web(held.headers[.location]!, jar: &jar)
            #expect(after.body.contains("Your series is on hold: 2 rides are cancelled. They are not late cancellations."))
            #expect(after.body.contains("<h2>Holds</h2>"))
            #expect(after.body.contains("Monday, December 7 to Wednesday, December 9: on hold"), "\(after.body)")
            #expect(after.body.contains(#"action="/series/\#(id)/holds/"#) && after.body.contains("Resume now"))
            #expect(try await Self.live(w, "2026-12-07").isEmpty)
            #expect(try await Self.live(w, "2026-12-09").isEmpty)
        }
        await w.f.close()
    }

    @Test func anEditThatFitsIsShownFirstAndMadeOnlyWhenSheConfirms() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let id = try await SeriesRoutesTests.annsSeries(client, ann)
            var (jar, csrf) = try await Self.signedIn(client, "ann1", page: "/series/\(id)")
            let before = try await SeriesRoutesTests.snapshot(w)
            let fields = [("date", "2026-11-30"), ("scope", "one"), ("time", "16:00"), ("promise", ""), ("pickup", ""), ("dropoff", "")]
            let check = try await client.web("/series/\(id)/edit", form: [("csrf", csrf)] + fields, jar: &jar)
            #expect(check.status == .ok)
            #expect(check.body.contains("<h1>Check the change to your weekly rides</h1>"))
            #expect(check.body.contains("Every date fits. Nothing changes until you confirm."))
            #expect(check.body.contains("Fits: 4:00 PM"), "\(check.body)")
            #expect(check.body.contains(#"action="/series/\#(id)/edit/apply""#))
            #expect(check.body.contains(#"<input type="hidden" name="time" value="16:00">"#))
            #expect(try await SeriesRoutesTests.snapshot(w) == before, "the check changed something")

            let applied = try await client.web("/series/\(id)/edit/apply", form: [("csrf", csrf)] + fields, jar: &jar)
            #expect(applied.status == .seeOther && applied.headers[.location] == "/series/\(id)?done=edited")
            #expect(try await Self.live(w, "2026-11-30") == ["16:00"])
            #expect(try await Self.live(w, "2026-12-02") == ["15:00"], "another date changed")
            let page = try await client.web(applied.headers[.location]!, jar: &jar)
            #expect(page.body.contains("Your series is changed."))
        }
        await w.f.close()
    }

    @Test func anEditWithAConflictShowsSuggestionsAndChangesNothingUntilSheChooses() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            let id = try await SeriesRoutesTests.annsSeries(client, ann)
            var bobs = RideRoutesTests.sclToDavenport
            bobs["pickup_at"] = "2026-12-02T16:00"
            #expect(try await client.book(bob, bobs).status == .created)
            var (jar, csrf) = try await Self.signedIn(client, "ann1", page: "/series/\(id)")
            let before = try await SeriesRoutesTests.snapshot(w)
            let fields = [("date", "2026-12-02"), ("scope", "from"), ("time", "16:00"), ("promise", ""), ("pickup", ""), ("dropoff", "")]

            let check = try await client.web("/series/\(id)/edit", form: [("csrf", csrf)] + fields, jar: &jar)
            #expect(check.status == .ok)
            #expect(
                check.body.contains("1 date does not fit as asked. Choose what to do on each; nothing changes until you confirm."), "\(check.body)")
            #expect(check.body.contains("<legend><strong>Wednesday, December 2</strong>: Does not fit</legend>"))
            let suggestion = try #require(
                check.body.firstMatch(of: /<input type="radio" id="choice-2026-12-02-0" name="choice-2026-12-02" value="([^"]+)">/).map {
                    String($0.1)
                })
            #expect(check.body.contains(#"value="keep"><label for="choice-2026-12-02-keep">Keep this date as it was</label>"#))
            #expect(check.body.contains(#"value="skip"><label for="choice-2026-12-02-skip">No ride this date</label>"#))
            #expect(check.body.contains("<strong>Monday, December 7</strong>: Fits: 4:00 PM"))
            #expect(try await SeriesRoutesTests.snapshot(w) == before, "the check changed something")

            // Confirmed without a choice for the taken date: the check again, refused, nothing changed.
            let refused = try await client.web("/series/\(id)/edit/apply", form: [("csrf", csrf)] + fields, jar: &jar)
            #expect(refused.status == .conflict)
            #expect(refused.body.contains("<title>Error: "))
            #expect(refused.body.contains("Nothing was changed: 1 date does not fit as asked."))
            #expect(refused.body.contains("Choose what to do on Wednesday, December 2: this date does not fit as asked"))
            #expect(try await SeriesRoutesTests.snapshot(w) == before, "a refused confirm changed something")

            // With her choice: made, the taken date at the suggested time, the others at 4 PM.
            let chosen = [("csrf", csrf)] + fields + [("choice-2026-12-02", suggestion)]
            let applied = try await client.web("/series/\(id)/edit/apply", form: chosen, jar: &jar)
            #expect(applied.status == .seeOther && applied.headers[.location] == "/series/\(id)?done=edited")
            #expect(try await Self.live(w, "2026-12-02") == [suggestion])
            #expect(try await Self.live(w, "2026-12-07") == ["16:00"])
            #expect(try await Self.live(w, "2026-12-09") == ["16:00"])
            #expect(try await Self.live(w, "2026-11-30") == ["15:00"], "a date before the edit changed")
        }
        await w.f.close()
    }

    @Test func aBadHoldRangeIsAnsweredNextToTheFieldWithHerInputKept() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let id = try await SeriesRoutesTests.annsSeries(client, ann)
            var (jar, csrf) = try await Self.signedIn(client, "ann1", page: "/series/\(id)")
            let before = try await SeriesRoutesTests.snapshot(w)
            let backwards = try await client.web(
                "/series/\(id)/hold", form: [("csrf", csrf), ("from", "2026-12-09"), ("to", "2026-12-01")], jar: &jar)
            #expect(backwards.status == .unprocessableContent)
            #expect(backwards.body.contains("<title>Error: "))
            #expect(Self.fieldError(backwards.body, "to")?.hasPrefix("The last date held is before") == true, "\(backwards.body)")
            #expect(backwards.body.contains(##"<a href="#to">"##))
            #expect(backwards.body.contains(#"id="from" name="from" value="2026-12-09""#))
            #expect(backwards.body.contains(#"id="to" name="to" value="2026-12-01""#))
            #expect(backwards.body.contains(#"aria-describedby="dates-hint to-error" aria-invalid="true""#))
            let garbled = try await client.web("/series/\(id)/hold", form: [("csrf", csrf), ("from", "soon"), ("to", "")], jar: &jar)
            #expect(garbled.status == .unprocessableContent)
            #expect(Self.fieldError(garbled.body, "from") != nil && Self.fieldError(garbled.body, "to") != nil)
            #expect(garbled.body.contains(#"id="from" name="from" value="soon""#))
            #expect(try await SeriesRoutesTests.snapshot(w) == before)
        }
        await w.f.close()
    }

    @Test func everyFormNeedsItsCSRFTokenAndAnotherRidersSeriesIsNotFound() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let id = try await SeriesRoutesTests.annsSeries(client, ann)
            var (jar, csrf) = try await Self.signedIn(client, "ann1", page: "/series/\(id)")
            let held = try await client.web("/series/\(id)/hold", form: [("csrf", csrf), ("from", "2026-12-07"), ("to", "2026-12-09")], jar: &jar)
            let hold = try #require(
                try await client.web(held.headers[.location]!, jar: &jar).body.firstMatch(of: /action="\/series\/[0-9a-f-]+\/holds\/(\d+)\/resume"/)
                    .map { String($0.1) })
            let before = try await SeriesRoutesTests.snapshot(w)
            let edit = [("date", "2026-11-30"), ("scope", "one"), ("time", "16:00")]
            let forms: [(String, [(String, String)])] = [
                ("/series/\(id)/edit", edit), ("/series/\(id)/edit/apply", edit),
                ("/series/\(id)/hold", [("from", "2026-11-30"), ("to", "2026-12-02")]),
                ("/series/\(id)/holds/\(hold)/resume", []), ("/series/\(id)/holds/\(hold)/resume/apply", []),
            ]
            for (path, form) in forms {
                #expect(try await client.web(path, form: form, jar: &jar).status == .forbidden, "\(path) without a token")
                #expect(try await client.web(path, form: [("csrf", "forged")] + form, jar: &jar).status == .forbidden, "\(path) with a forged token")
            }
            #expect(try await SeriesRoutesTests.snapshot(w) == before)

            // Bob: her series is not found, by page or by form; nothing changes.
            var (bobs, bobCSRF) = try await Self.signedIn(client, "bob2", page: "/rides")
            #expect(try await client.web("/series/\(id)", jar: &bobs).status == .notFound)
            #expect(try await client.web("/series/not-a-series", jar: &bobs).status == .notFound)
            for (path, form) in forms {
                let answer = try await client.web(path, form: [("csrf", bobCSRF)] + form, jar: &bobs)
                #expect(answer.status == .notFound, "\(path) answered bob \(answer.status)")
            }
            #expect(try await SeriesRoutesTests.snapshot(w) == before)
        }
        await w.f.close()
    }
}
