import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// The console's appeals page (`/dispatch/appeals`): the open cases beside each rider's record,
/// her appeal as she wrote it, and the decision, on the real router and a real database.
@Suite("The console lists the appeals and decides them")
struct WebDispatchAppealsTests {
    /// The decide form's field errors on the page, by id.
    static func errors(_ body: String) -> [String] {
        body.matches(of: /<p class="error" id="([a-z-]+)-\d+"><span class="vh">Error: <\/span>([^<]*)/).map { "\($0.1): \($0.2)" }
    }

    /// The appealed case beside her record and her escaped words; a decision without a choice or
    /// reasons refused by the field; a decision made (flash, audit) and not made twice.
    @Test func anAppealedCaseIsListedBesideHerRecordAndTheDecideFormDecidesIt() async throws {
        let s = try await StandingWorld()
        let id = s.notice.id
        let words = "I waited at the <b>north</b> door \u{202E}every time"
        try await s.standing.appeal("ann1", text: words, filedBy: "ann1", now: s.w.f.clock.now)
        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("dee1", jar: &jar).status == .seeOther)
            let page = try await client.web("/dispatch/appeals", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"<a href="/dispatch/appeals" aria-current="page">Appeals <span class="badge">1 open</span></a>"#))
            #expect(page.body.contains(#"Notice \#(id): <bdi>Ann Rivera</bdi> <span class="netid">(ann1)</span>, appealed, on hold"#))
            #expect(page.body.contains("<bdi>I waited at the &lt;b&gt;north&lt;/b&gt; door \u{202E}every time</bdi>"))
            #expect(
                page.body.contains(
                    "3 counted in the last 30 days, 75 % of 4 scheduled trips (the policy: 3 and 10 %); 3 of them named in a notice already"))
            #expect(WebStandingTests.count(#"<strong class="counts">Counted in notice \#(id)</strong>"#, in: page.body) == 3)
            #expect(WebStandingTests.count(#"<strong class="excluded">Does not count</strong>"#, in: page.body) == 1)
            #expect(page.body.contains(#"<form method="post" action="/dispatch/appeals/\#(id)/decide""#))
            // Every console page counts the open cases beside "Appeals".
            #expect(try await client.web("/dispatch", jar: &jar).body.contains(#"Appeals <span class="badge">1 open</span>"#))
            let csrf = try #require(page.csrf)
            let action = "/dispatch/appeals/\(id)/decide"

            // No choice, no reasons: refused by the field, what was typed kept, nothing decided.
            let noChoice = try await client.web(action, form: [("csrf", csrf), ("reason", "She was there")], jar: &jar)
            #expect(noChoice.status == .unprocessableContent)
            #expect(Self.errors(noChoice.body) == ["decision-error: Choose the decision on notice \(id): uphold the suspension, or overturn it"])
            #expect(noChoice.body.contains(">She was there</textarea>"))
            let noReason = try await client.web(action, form: [("csrf", csrf), ("decision", "overturn"), ("reason", "  ")], jar: &jar)
            #expect(noReason.status == .unprocessableContent)
            #expect(Self.errors(noReason.body) == ["reason-error: Give the reasons for the decision on notice \(id); the rider reads them"])
            #expect(noReason.body.contains(#"id="overturn-\#(id)" name="decision" type="radio" value="overturn" checked"#))
            #expect(noReason.body.contains(##"<a href="#reason-\##(id)">"##))
            #expect(try await s.status() == "appealed")

            // Decided: the flash says so once, and the case is upheld with her reasons.
            let decided = try await client.web(
                action, form: [("csrf", csrf), ("decision", "uphold"), ("reason", "The taps show the van waited <10 min>")], jar: &jar)
            #expect(decided.status == .seeOther && decided.headers[.location] == "/dispatch/appeals")
            #expect(try await s.status() == "upheld")
            let after = try await client.web("/dispatch/appeals", jar: &jar)
            #expect(after.body.contains("Notice \(id) upheld for Ann Rivera: her rides are suspended from"))
            #expect(after.body.contains("Reasons: <bdi>The taps show the van waited &lt;10 min&gt;</bdi>"))
            #expect(!after.body.contains(#"action="\#(action)""#), "a decided case still offers the form")
            // Sent again: nothing changes, and the flash says why.
            _ = try await client.web(action, form: [("csrf", csrf), ("decision", "overturn"), ("reason", "Changed my mind")], jar: &jar)
            #expect(try await s.status() == "upheld")
            #expect(try await client.web("/dispatch/appeals", jar: &jar).body.contains("Notice \(id) is upheld, with no appeal waiting"))
        }
        #expect(try await s.w.auditActors("suspension.uphold") == [ConsoleWorld.dispatcherActor])
        #expect(try await s.w.count("SELECT count(*) FROM audit_log WHERE action = 'suspension.overturn'") == 0)
        await s.w.f.close()
    }

    /// A rider's session reaches neither the page nor the decision; the case stays on hold.
    @Test func aRiderIsRefusedTheAppealsPageAndItsDecision() async throws {
        let s = try await StandingWorld()
        try await s.standing.appeal("ann1", text: "I was there", filedBy: "ann1", now: s.w.f.clock.now)
        try await s.w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let csrf = try #require(try await client.web("/standing", jar: &jar).csrf)
            #expect(try await client.web("/dispatch/appeals", jar: &jar).status == .forbidden)
            let decide = try await client.web(
                "/dispatch/appeals/\(s.notice.id)/decide", form: [("csrf", csrf), ("decision", "overturn"), ("reason", "Mine")], jar: &jar)
            #expect(decide.status == .forbidden)
        }
        #expect(try await s.status() == "appealed")
        await s.w.f.close()
    }
}
