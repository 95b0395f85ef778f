import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanPostgres
import VanServices
import VanTestSupport
@testable import vand

/// "I'll call when I'm ready" on the rider's booking form and her ride's page: the ride there
/// booked with a will-call way back, "both or one" refused by the field, and "I'm ready" booking
/// the way back once the ride there is over (a van within the wait, or her page again saying why).
@Suite("A will-call way back on the rider's form and ride page")
struct WebWillCallTests {
    /// Monday 2026-11-30 09:00, SCL → Davenport, with `back` ("And back at") and the will-call box.
    static func form(_ csrf: String, back: String = "", willCall: Bool = true) -> [(String, String)] {
        var form = [
            ("csrf", csrf), ("pickup", "SCL"), ("dropoff", "Davenport"), ("date", "2026-11-30"), ("time", "09:00"), ("time_is", "pickup"),
            ("return_time", back), ("companions", "0"), ("form_key", UUID().uuidString),
        ]
        if willCall { form.append(("will_call", "yes")) }
        return form
    }

    static func count(_ w: BookingWorld, _ sql: SQLQuery) async throws -> Int {
        try await w.f.database.pool.withConnection { try $0.query(sql).first!.decode(Int.self, at: 0) }
    }

    /// The driver dropped her off: the ride there is over (as the road's drop-off writes it).
    static func dropOff(_ w: BookingWorld, _ id: Substring) async throws {
        try await w.f.database.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET status = 'approved' WHERE id = \(String(id))::uuid")
            try conn.execute("UPDATE rides SET status = 'completed' WHERE id = \(String(id))::uuid")
        }
    }

    @Test func aRideBookedWithAWillCallSaysSoAndOffersNoReadyUntilItIsOver() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let page = try await client.web("/book", jar: &jar)
            #expect(page.body.contains(#"<input id="will_call" name="will_call" type="checkbox" value="yes" aria-describedby="will_call-hint">"#))
            #expect(page.body.contains(#"<label for="will_call">I'll call when I'm ready</label>"#))
            let booked = try await client.web("/book", form: Self.form(try #require(page.csrf)), jar: &jar)
            #expect(booked.status == .seeOther)
            let location = try #require(booked.headers[.location])
            #expect(location.hasSuffix("?done=booked"), "\(location)")
            let id = try #require(location.firstMatch(of: #/^/rides/([0-9a-f-]{36})\?/#)?.1)
            let there = try await client.web(location, jar: &jar)
            #expect(there.body.contains("Way back: you'll call when you're ready, from <bdi>Davenport College</bdi>."), "\(there.body)")
            #expect(there.body.contains("Tap I'm ready here once you have arrived."))
            #expect(!there.body.contains(#"action="/rides/\#(id)/ready""#), "no I'm ready before the ride there is over")
            // Cancelling it offers to call the way back off too.
            let confirm = try await client.web("/rides/\(id)/cancel", jar: &jar)
            #expect(confirm.body.contains(#"<label for="with_return">Call off my way back too"#))
        }
        #expect(try await w.rideCount() == 1, "only the ride there is booked")
        #expect(try await Self.count(w, "SELECT count(*) FROM will_calls WHERE net_id = 'ann1' AND ready_at IS NULL AND closed_at IS NULL") == 1)
        await w.f.close()
    }

    @Test func aTimeAndAWillCallTogetherAreAnsweredByTheFieldWithTheInputKeptAndNothingBooked() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let csrf = try #require(try await client.web("/book", jar: &jar).csrf)
            let both = try await client.web("/book", form: Self.form(csrf, back: "15:30"), jar: &jar)
            #expect(both.status == .unprocessableContent)
            #expect(
                both.body.contains(
                    #"<p class="error" id="return_time-error"><span class="vh">Error: </span>Give a time to come back, or tick “I’ll call when I’m ready”, not both</p>"#
                ), "\(both.body)")
            #expect(both.body.contains(##"<a href="#return_time">Give a time to come back"##), "the summary links the field")
            #expect(both.body.contains(#"id="return_time" name="return_time" type="time" step="300" value="15:30""#), "her time is kept")
            #expect(
                both.body.contains(
                    #"<input id="will_call" name="will_call" type="checkbox" value="yes" checked aria-describedby="will_call-hint return_time-error">"#
                ),
                "her tick is kept")
            #expect(both.body.contains(#"id="time" name="time" type="time" step="300" value="09:00""#))
        }
        #expect(try await w.rideCount() == 0)
        #expect(try await Self.count(w, "SELECT count(*) FROM will_calls") == 0)
        await w.f.close()
    }

    @Test func imReadyBooksTheWayBackOnceTheRideThereIsOverAndBothPagesLinkIt() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let booked = try await client.web("/book", form: Self.form(try #require(try await client.web("/book", jar: &jar).csrf)), jar: &jar)
            let location = try #require(booked.headers[.location])
            let id = try #require(location.firstMatch(of: #/^/rides/([0-9a-f-]{36})\?/#)?.1)
            let csrf = try #require(try await client.web("/rides/\(id)", jar: &jar).csrf)

            // Before the drop-off: refused with the sentence, her ride's page again, nothing booked.
            let early = try await client.web("/rides/\(id)/ready", form: [("csrf", csrf)], jar: &jar)
            #expect(early.status == .conflict)
            #expect(early.body.contains("Your ride there is not over yet"), "\(early.body)")
            #expect(early.body.contains("Way back: you'll call when you're ready"), "nothing lost: her way back is still there to call for")

            // Monday 11:00: dropped off at 9-something, she is ready to go back.
            try await Self.dropOff(w, id)
            w.f.clock.set(w.f.clock.now.addingTimeInterval(28 * 3600))
            let over = try await client.web("/rides/\(id)", jar: &jar)
            #expect(over.body.contains(#"<form method="post" action="/rides/\#(id)/ready">"#), "\(over.body)")
            #expect(over.body.contains(#"<button type="submit" aria-describedby="ready-hint">I'm ready</button>"#))
            #expect(!over.body.contains("Tap I'm ready here once you have arrived."))

            // A form without its token (as another site would post it) is refused and books nothing.
            let forged = try await client.web("/rides/\(id)/ready", form: [("csrf", "forged")], jar: &jar)
            #expect(forged.status == .forbidden)
            #expect(try await Self.count(w, "SELECT count(*) FROM rides WHERE return_of = \(String(id))::uuid") == 0)

            let ready = try await client.web("/rides/\(id)/ready", form: [("csrf", try #require(over.csrf))], jar: &jar)
            #expect(ready.status == .seeOther)
            let backLocation = try #require(ready.headers[.location])
            let backID = try #require(backLocation.firstMatch(of: #/^/rides/([0-9a-f-]{36})\?done=ready$/#)?.1, "\(backLocation)")
            #expect(backID != id)
            let back = try await client.web(backLocation, jar: &jar)
            #expect(back.body.contains("Your way back is requested for 11:05 AM today."), "\(back.body)")
            #expect(back.body.contains(#"This is your way back from <a href="/rides/\#(id)">"#))
            #expect(back.body.contains("<dt>From</dt><dd>Davenport College</dd>") && back.body.contains("<dt>To</dt><dd>Sterling Chemistry Lab</dd>"))
            let ref = try await w.f.database.pool.withConnection { conn in
                try conn.query("SELECT ref FROM rides WHERE id = \(String(backID))::uuid").first!.decode(String.self, at: 0)
            }
            let there = try await client.web("/rides/\(id)", jar: &jar)
            #expect(
                there.body.contains(#"Way back booked: <a href="/rides/\#(backID)"><span class="ref" aria-hidden="true">\#(ref)</span>"#),
                "\(there.body)")
            #expect(there.body.contains("at 11:05 AM today</a>."))
            #expect(!there.body.contains(#"action="/rides/\#(id)/ready""#) && !there.body.contains("Your way back: <a"), "one line for the way back")

            // A second tap (the back button, a double tap) gets the same way back, and books nothing more.
            let again = try await client.web("/rides/\(id)/ready", form: [("csrf", try #require(there.csrf))], jar: &jar)
            #expect(again.headers[.location] == "/rides/\(backID)?done=ready-already")
        }
        #expect(try await Self.count(w, "SELECT count(*) FROM rides WHERE return_of IS NOT NULL") == 1)
        #expect(try await Self.count(w, "SELECT count(*) FROM will_calls WHERE ready_by = 'ann1' AND ready_at IS NOT NULL") == 1)
        await w.f.close()
    }

    @Test func noVanWithinTheWaitShowsHerPageAgainWithWhyAndKeepsHerCallOpen() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let booked = try await client.web("/book", form: Self.form(try #require(try await client.web("/book", jar: &jar).csrf)), jar: &jar)
            let location = try #require(booked.headers[.location])
            let id = try #require(location.firstMatch(of: #/^/rides/([0-9a-f-]{36})\?/#)?.1)
            try await Self.dropOff(w, id)
            // No van in service now: none can come within the wait.
            try await w.f.database.pool.withConnection { try $0.execute("UPDATE vans SET active = false") }
            let page = try await client.web("/rides/\(id)", jar: &jar)
            let refused = try await client.web("/rides/\(id)/ready", form: [("csrf", try #require(page.csrf))], jar: &jar)
            #expect(refused.status == .conflict)
            #expect(
                refused.body.contains(#"<div class="notice" tabindex="-1" data-focus><p>No van can pick you up within 30 minutes."#),
                "\(refused.body)")
            #expect(refused.body.contains(#"action="/rides/\#(id)/ready""#), "she can say so again")
        }
        #expect(try await Self.count(w, "SELECT count(*) FROM rides") == 1)
        #expect(try await Self.count(w, "SELECT count(*) FROM will_calls WHERE ready_at IS NULL AND closed_at IS NULL") == 1)
        await w.f.close()
    }
}
