import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// A suspended rider's booking, refused on the web as the service refuses it: her own form and
/// the console's phone booking show the sentence with the dates and the office's number, keep
/// what was typed, and book nothing.
@Suite("A suspended rider's booking forms say why and book nothing")
struct WebSuspendedBookingTests {
    /// Monday 2026-11-30 15:00 (the suspension covers it), SCL → Davenport with a note.
    static func form(_ csrf: String) -> [(String, String)] {
        [
            ("csrf", csrf), ("pickup", "SCL"), ("dropoff", "Davenport"), ("date", "2026-11-30"), ("time", "15:00"), ("time_is", "pickup"),
            ("companions", "0"), ("note", "Side door please"),
        ]
    }

    /// Her `/book` (twice, and as a weekly series) and the console's booking for her: 403 with
    /// the sentence, her input kept, no ride and no audit line.
    @Test func herOwnFormAndThePhoneBookingShowTheSentenceKeepHerInputAndBookNothing() async throws {
        let s = try await StandingWorld()
        try await s.inEffectToday()
        let sentence =
            "Your rides are suspended under the no-show policy from Sunday, November 29 to Saturday, December 5"
            + " (you may ride again on Sunday, December 6). For a ride you need for medical reasons, or if this is wrong,"
            + " call the office at 607-555-0100."
        let rides = try await s.w.count("SELECT count(*) FROM rides")
        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let fresh = try await client.web("/book", jar: &jar)
            let csrf = try #require(fresh.csrf)
            // Said before she fills the form in, with the dates, and again on ride-now.
            let ahead =
                "Under the no-show policy your rides are suspended from Sunday, November 29 to Saturday, December 5"
                + " (you may ride again on Sunday, December 6); a ride on those days cannot be booked."
            #expect(
                fresh.body.contains(#"<h2 id="suspension-ahead-title">Your rides are suspended</h2>"#) && fresh.body.contains(ahead), "\(fresh.body)")
            #expect(try await client.web("/ride-now", jar: &jar).body.contains(ahead))
            for _ in 0..<2 {
                let refused = try await client.web("/book", form: Self.form(csrf) + [("form_key", UUID().uuidString)], jar: &jar)
                #expect(refused.status == .forbidden)
                #expect(refused.body.contains("Your rides are suspended: nothing was booked"))
                #expect(refused.body.contains(#"<p class="sentence">\#(sentence)</p>"#), "\(refused.body)")
                #expect(refused.body.contains(#"<a href="/standing">See your record and how to appeal</a>"#))
                // What she typed is kept.
                #expect(refused.body.contains(#"id="pickup" name="pickup" type="text" value="SCL""#))
                #expect(refused.body.contains(#"value="2026-11-30""#) && refused.body.contains(#"value="15:00""#))
                #expect(refused.body.contains(">Side door please</textarea>"))
                #expect(refused.body.contains("<title>Suspended: Book ahead – Campus Van</title>"))
                #expect(!refused.body.contains("suspension-ahead-title"), "the refusal says it once")
            }
            // A weekly series: refused whole.
            let series = try await client.web(
                "/book", form: Self.form(csrf) + [("repeat", "yes"), ("repeat_days", "mon"), ("repeat_until", "2026-12-07")], jar: &jar)
            #expect(series.status == .forbidden && series.body.contains(sentence))
        }
        #expect(try await s.w.count("SELECT count(*) FROM rides") == rides)

        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("dee1", jar: &jar).status == .seeOther)
            let form = try await client.web("/dispatch/book/ann1", jar: &jar)
            // Said before the dispatcher books: the dates, and the last day to appeal.
            #expect(
                form.body.contains(
                    "Notice \(s.notice.id): her rides are suspended from Sunday, November 29 to Saturday, December 5 (you may ride again on Sunday, December 6);"
                        + " a booking on those days is refused. She may appeal until Wednesday, December 9, which puts it on hold."),
                "\(form.body)")
            let csrf = try #require(form.csrf)
            let refused = try await client.web("/dispatch/book/ann1", form: Self.form(csrf) + [("when", "ahead")], jar: &jar)
            #expect(refused.status == .forbidden)
            #expect(refused.body.contains("Her rides are suspended: nothing was booked"))
            #expect(refused.body.contains(#"<p class="sentence">\#(sentence)</p>"#))
            #expect(refused.body.contains(#"id="pickup" name="pickup" type="text" value="SCL""#))
            #expect(refused.body.contains(">Side door please</textarea>"))
            #expect(!refused.body.contains("Suspended under the no-show policy"), "the suspension is said twice")
        }
        #expect(try await s.w.count("SELECT count(*) FROM rides") == rides)
        #expect(try await s.w.count("SELECT count(*) FROM audit_log WHERE action = 'book'") == 0)
        await s.w.f.close()
    }
}
