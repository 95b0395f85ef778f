import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// The rider's record page (`/standing`) and her appeal, on the real router and a real
/// database, from a record the service judged (``StandingWorld``).
@Suite("The rider's record under the no-show policy, and her appeal, on the web")
struct WebStandingTests {
    /// How many times `needle` occurs in `body`.
    static func count(_ needle: String, in body: String) -> Int {
        body.components(separatedBy: needle).count - 1
    }

    /// The appeal form's field error, if any.
    static func appealError(_ body: String) -> String? {
        body.firstMatch(of: /<p class="error" id="appeal-error"><span class="vh">Error: <\/span>([^<]*)<\/p>/).map { String($0.1) }
    }

    /// Her record: the trips her notice named, the one without taps and why, a later trip that
    /// counts, the notice, the form and the policy; another rider sees only her own.
    @Test func theRecordPageShowsEachMissedTripCountedOrExcludedAndTheNotice() async throws {
        let s = try await StandingWorld()
        try await s.w.f.activeRider("bob2")
        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            #expect(try await client.web("/", jar: &jar).body.contains(#"<a class="more" href="/standing">"#))
            #expect(try await client.web("/rides", jar: &jar).body.contains(#"href="/standing""#))
            let page = try await client.web("/standing", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.body.contains("<h1>Your record</h1>"))
            // The three trips the notice named count toward it (not again toward a new one); the one without taps does not count.
            #expect(
                page.body.contains(
                    "3 counted in the last 30 days, 75 % of 4 scheduled trips (the policy: 3 and 10 %); 3 of them named in a notice already, and the rest are within the policy."
                ),
                "\(page.body)")
            #expect(Self.count(#"<strong class="counts">Counted in notice \#(s.notice.id)</strong>"#, in: page.body) == 3)
            #expect(Self.count(#"<strong class="excluded">Does not count</strong>"#, in: page.body) == 1)
            #expect(page.body.contains(#"<strong class="excluded">Does not count</strong>: no driver&#39;s tap shows the van came and waited"#))
            for ref in s.refs { #expect(page.body.contains("reference \(ref)"), "\(ref) not listed") }
            // The notice: its number, the trips it names, the period and the last day to appeal.
            #expect(page.body.contains("Notice \(s.notice.id): notice, starts Wednesday, December 9</h3>"))
            for ref in s.refs.prefix(3) { #expect(page.body.contains("\(ref), no-show)"), "the notice does not name \(ref)") }
            #expect(!page.body.contains("\(s.refs[3]), no-show)"), "the notice names the trip that does not count")
            #expect(page.body.contains("7 days, from "))
            #expect(page.body.contains("<dt>Appeal by</dt><dd>Wednesday, December 9</dd>"), "\(page.body)")
            // The appeal form, with her CSRF token, and the policy.
            #expect(page.body.contains(#"<form method="post" action="/standing/appeal""#))
            #expect(page.body.contains(#"<label for="appeal">Why these trips should not count</label>"#))
            #expect(page.csrf != nil)
            #expect(page.body.contains("A pattern of missed trips is at least 3 counted no-shows in 30 days"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            // A missed trip after the notice, proven by the taps, counts toward a new one.
            let later = try await StandingWorld.missedTrip(s.w, daysAgo: 0, hour: 6, provenByTaps: true)
            let again = try await client.web("/standing", jar: &jar)
            #expect(again.body.contains(#"<strong class="counts">Counts</strong></p>"#) && again.body.contains("reference \(later)"))
            #expect(
                again.body.contains(
                    "4 counted in the last 30 days, 80 % of 5 scheduled trips (the policy: 3 and 10 %); 3 of them named in a notice already, and the rest are within the policy."
                ))
            #expect(!page.body.contains("<script>") && !page.body.contains("style="))
        }
        // Another rider sees her own record only: none of ann's trips, no notice, no form.
        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("bob2", jar: &jar).status == .seeOther)
            let page = try await client.web("/standing", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.body.contains("No missed trips in the last 30 days") && page.body.contains("You have had no notice"))
            for ref in s.refs { #expect(!page.body.contains(ref)) }
            #expect(!page.body.contains("/standing/appeal"))
        }
        await s.w.f.close()
    }

    /// A forged, an empty and a too long appeal change nothing; a good one is filed (PRG) and
    /// shown escaped; one more finds nothing to appeal, her words kept.
    @Test func herAppealIsFiledAndARefusedOneKeepsHerWordsNextToTheField() async throws {
        let s = try await StandingWorld()
        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let csrf = try #require(try await client.web("/standing", jar: &jar).csrf)
            // Without the form's token: refused, nothing filed.
            let forged = try await client.web("/standing/appeal", form: [("appeal", "I was there")], jar: &jar)
            #expect(forged.status == .forbidden)
            // Empty: the message next to the field, nothing filed.
            let empty = try await client.web("/standing/appeal", form: [("csrf", csrf), ("appeal", "   ")], jar: &jar)
            #expect(empty.status == .unprocessableContent)
            #expect(Self.appealError(empty.body) == "Write why these trips should not count: your appeal is empty")
            #expect(empty.body.contains(#"aria-invalid="true""#) && empty.body.contains(##"<a href="#appeal">"##))
            #expect(try await s.status() == "proposed")
            // Too long: her words kept, nothing filed.
            let long = String(repeating: "x", count: 2_001)
            let tooLong = try await client.web("/standing/appeal", form: [("csrf", csrf), ("appeal", long)], jar: &jar)
            #expect(tooLong.status == .unprocessableContent)
            #expect(Self.appealError(tooLong.body)?.hasPrefix("Shorten your appeal to 2000 characters (it has 2001)") == true)
            #expect(tooLong.body.contains(">\(long)</textarea>"))
            #expect(try await s.status() == "proposed")

            // Filed: redirected to her record, which says so; her words shown as text.
            let words = "The van went to the <b>wrong</b> door \u{202E}twice"
            let filed = try await client.web("/standing/appeal", form: [("csrf", csrf), ("appeal", words)], jar: &jar)
            #expect(filed.status == .seeOther && filed.headers[.location] == "/standing?done=appealed")
            #expect(try await s.status() == "appealed")
            let after = try await client.web("/standing?done=appealed", jar: &jar)
            #expect(after.body.contains("Your appeal is filed. The suspension is on hold until the office decides"))
            #expect(after.body.contains("<bdi>The van went to the &lt;b&gt;wrong&lt;/b&gt; door \u{202E}twice</bdi>"))
            #expect(after.body.contains("Filed 7:00 AM today by <bdi>you</bdi>"))
            #expect(after.body.contains("appealed, on hold") && !after.body.contains(#"action="/standing/appeal""#))

            // Again: nothing to appeal; her words kept with the reason next to the field.
            let again = try await client.web("/standing/appeal", form: [("csrf", csrf), ("appeal", "One more thing")], jar: &jar)
            #expect(again.status == .conflict)
            #expect(Self.appealError(again.body)?.hasPrefix("You have no notice to appeal now, so nothing was filed") == true)
            #expect(again.body.contains(">One more thing</textarea>"))
        }
        #expect(try await s.w.count("SELECT count(*) FROM suspensions WHERE appeal_text = 'One more thing'") == 0)
        #expect(try await s.w.count("SELECT count(*) FROM audit_log WHERE action = 'suspension.appeal' AND actor = 'ann1'") == 1)
        await s.w.f.close()
    }

    /// After the last day to appeal: no form, the suspension said, and a sent appeal refused.
    @Test func anAppealAfterItsLastDayIsRefusedWithHerWordsKept() async throws {
        let s = try await StandingWorld()
        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let csrf = try #require(try await client.web("/standing", jar: &jar).csrf)
            s.w.f.clock.advance(by: 11 * 86_400)
            let page = try await client.web("/standing", jar: &jar)
            #expect(!page.body.contains(#"action="/standing/appeal""#), "the form is offered after the last day to appeal")
            #expect(page.body.contains("Your rides are suspended under the no-show policy from"))
            let late = try await client.web("/standing/appeal", form: [("csrf", csrf), ("appeal", "I was in hospital")], jar: &jar)
            #expect(late.status == .conflict)
            #expect(
                Self.appealError(late.body)
                    == "The time to appeal ended on Wednesday, December 9, so nothing was filed; call the office at 607-555-0100 to be heard")
            #expect(late.body.contains(">I was in hospital</textarea>"))
        }
        #expect(try await s.status() == "proposed")
        await s.w.f.close()
    }
}
