import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanPostgres
import VanServices
import VanTestSupport
@testable import vand

/// "And back at" on the booking form: both rides or neither, the two shown together, the way
/// back's own nearest times when only it is taken, and cancelling both from the ride there.
@Suite("The way back on the rider's booking form")
struct WebTripTests {
    static func form(_ csrf: String, back: String) -> [(String, String)] {
        [
            ("csrf", csrf), ("pickup", "SCL"), ("dropoff", "Davenport"), ("date", "2026-11-30"), ("time", "09:00"), ("time_is", "pickup"),
            ("return_time", back), ("companions", "0"), ("form_key", UUID().uuidString),
        ]
    }

    @Test func aRideAndItsWayBackAreBookedTogetherShownTogetherAndCancelledTogether() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let page = try await client.web("/book", jar: &jar)
            #expect(page.body.contains(#"<label for="return_time">And back at (optional)</label>"#))
            let booked = try await client.web("/book", form: Self.form(try #require(page.csrf), back: "15:30"), jar: &jar)
            #expect(booked.status == .seeOther)
            let location = try #require(booked.headers[.location])
            #expect(location.hasSuffix("?done=booked-trip"), "\(location)")
            let there = try await client.web(location, jar: &jar)
            #expect(there.body.contains("Your ride and your way back are requested."))
            let backLink = try #require(there.body.firstMatch(of: #/Your way back: <a href="(/rides/[0-9a-f-]+)">/#)?.1)
            let back = try await client.web(String(backLink), jar: &jar)
            #expect(back.body.contains("This is your way back from <a href=\"\(location.split(separator: "?")[0])\">"), "\(back.body)")

            // Cancelling the ride there asks about the way back.
            let confirm = try await client.web("\(location.split(separator: "?")[0])/cancel", jar: &jar)
            #expect(confirm.body.contains(#"<label for="with_return">Cancel my way back too"#))
            let cancelled = try await client.web(
                "\(location.split(separator: "?")[0])/cancel", form: [("csrf", try #require(confirm.csrf)), ("with_return", "yes")], jar: &jar)
            #expect(cancelled.status == .seeOther)
        }
        let statuses = try await w.f.database.pool.withConnection { conn in
            try conn.query("SELECT status FROM rides ORDER BY pickup_at").map { try $0.decode(String.self, at: 0) }
        }
        #expect(statuses == ["cancelled", "cancelled"])
        await w.f.close()
    }

    @Test func aWayBackTooSoonOrBeforeTheRideIsAnsweredByItsFieldWithTheInputKeptAndNothingBooked() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &jar).status == .seeOther)
            let csrf = try #require(try await client.web("/book", jar: &jar).csrf)
            let before = try await client.web("/book", form: Self.form(csrf, back: "08:00"), jar: &jar)
            #expect(before.status == .unprocessableContent)
            #expect(before.body.contains(#"id="return_time-error""#) && before.body.contains("must be after the ride there"), "\(before.body)")
            #expect(before.body.contains(#"id="return_time" name="return_time" type="time" step="300" value="08:00""#))

            let soon = try await client.web("/book", form: Self.form(csrf, back: "09:05"), jar: &jar)
            #expect(soon.status == .conflict)
            #expect(soon.body.contains("Nothing is booked: the way back can start at"), "\(soon.body)")
            // The one-tap suggestion keeps the ride there and moves only the way back.
            #expect(soon.body.contains(">Book with the way back "), "\(soon.body)")
            #expect(soon.body.contains(#"name="time" value="09:00""#))
            #expect(soon.body.contains(#"value="09:05""#), "her input is kept")
        }
        #expect(try await w.rideCount() == 0)
        await w.f.close()
    }
}
