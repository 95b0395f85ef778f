import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

extension WebAnswerSeen {
    /// The one-time key of the page's booking form.
    var formKey: String? {
        guard let range = body.range(of: #"name="form_key" value="([^"]+)""#, options: .regularExpression) else { return nil }
        return String(body[range].dropFirst(#"name="form_key" value=""#.count).dropLast())
    }
}

@Suite("The web app's booking forms keep the scheduler's figures and book once")
struct WebBookingRulesTests {
    @Test func thePromisedWindowIsTheSchedulersSetting() async throws {
        let w = try await BookingWorld()
        var settings = SchedulerSettings()
        settings.windowMinutes = 20
        try await ServiceCalendarStore(pool: w.f.database.pool, timeZone: w.f.configuration.timeZone).setSettings(settings, actor: "dispatcher")
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let now = try await client.web("/ride-now", jar: &jar)
            #expect(now.body.contains("the van picks you up at about <strong>7:05 AM today</strong>: be ready until 7:25 AM"))
            let book = try await client.web("/book", jar: &jar)
            #expect(book.body.contains("be ready until 20 minutes after. Arrival: you are there between 20 minutes before and this time."))
            let booked = try await client.web("/book", form: WebRoutesTests.bookForm(book.csrf ?? ""), jar: &jar)
            let ride = try await client.web(try #require(booked.headers[.location]), jar: &jar)
            #expect(ride.body.contains("3:00 PM tomorrow (be ready until 3:20 PM)"), "\(ride.body)")
        }
        await w.f.close()
    }

    /// A NUL in a form field is refused at its field, as the API refuses it, and nothing is stored
    /// (libpq would otherwise cut the text there).
    @Test func aNULInTheNoteOrAPlaceIsRefusedAtItsFieldAndNothingIsStored() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let note = try await client.web("/book", form: WebRoutesTests.bookForm(page.csrf ?? "", note: "wait\u{0}here"), jar: &jar)
            #expect(note.status == .unprocessableContent)
            #expect(note.body.contains(#"id="note-error""#) && note.body.contains("NUL"), "\(note.body)")
            let place = try await client.web("/book", form: WebRoutesTests.bookForm(page.csrf ?? "", dropoff: "Daven\u{0}port"), jar: &jar)
            #expect(place.status == .unprocessableContent)
            #expect(place.body.contains(#"id="dropoff-error""#) && place.body.contains("NUL"), "\(place.body)")
            #expect(try await w.rideCount() == 0)
        }
        await w.f.close()
    }

    @Test func theSameFormSentTwiceBooksOnceAndShowsTheFirstBooking() async throws {
        let w = try await BookingWorld(vans: 2)
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let form = WebRoutesTests.bookForm(page.csrf ?? "") + [("form_key", try #require(page.formKey))]
            let first = try await client.web("/book", form: form, jar: &jar)
            let again = try await client.web("/book", form: form, jar: &jar)
            #expect(first.status == .seeOther && again.status == .seeOther)
            #expect(again.headers[.location] == first.headers[.location])
            #expect(try await w.rideCount() == 1)
            // Every page gets a fresh key: a new form is a new request.
            let next = try await client.web("/book", jar: &jar)
            #expect(next.formKey != page.formKey)
            // Two at once (a double tap) book once and both show that ride.
            let later = WebRoutesTests.bookForm(next.csrf ?? "", time: "17:00") + [("form_key", try #require(next.formKey))]
            let sent = jar
            async let a = client.web("/book", form: later, jar: sent)
            async let b = client.web("/book", form: later, jar: sent)
            let (x, y) = try await (a, b)
            #expect(x.status == .seeOther && y.status == .seeOther && x.headers[.location] == y.headers[.location])
            #expect(try await w.rideCount() == 2)
            // The form changed and sent again (after the back button) is a new request.
            let changed = WebRoutesTests.bookForm(next.csrf ?? "", time: "18:00") + [("form_key", try #require(next.formKey))]
            let other = try await client.web("/book", form: changed, jar: &jar)
            #expect(other.status == .seeOther && other.headers[.location] != x.headers[.location])
            #expect(try await w.rideCount() == 3)
        }
        await w.f.close()
    }

    @Test func aRefusedFormSentAgainShowsTheRefusalAndBooksNothing() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await client.book(bob, RideRoutesTests.sclToDavenport).status == .created)
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let form = WebRoutesTests.bookForm(page.csrf ?? "") + [("form_key", try #require(page.formKey))]
            let first = try await client.web("/book", form: form, jar: &jar)
            #expect(first.status == .conflict)
            // Bob cancels: the time is free now, but the same form sent again is the same request,
            // and shows what it was told the first time rather than booking.
            let bobsRide = try #require((try await client.get("/v1/rides", bob).body["rides"] as? [[String: Any]])?.first?["id"] as? String)
            try await client.execute(uri: "/v1/rides/\(bobsRide)/cancel", method: .post, headers: Wire.bearer(bob)) { #expect($0.status == .ok) }
            let again = try await client.web("/book", form: form, jar: &jar)
            #expect(again.status == .conflict && again.body.contains("The van is occupied at 3:00 PM."))
            #expect(again.body.contains(#"value="SCL""#) && again.formKey != page.formKey)
            #expect(try await w.rideCount() == 1)
            // A fresh form (a new key) books the freed time.
            let fresh = try await client.web("/book", jar: &jar)
            let booked = try await client.web(
                "/book", form: WebRoutesTests.bookForm(fresh.csrf ?? "") + [("form_key", try #require(fresh.formKey))], jar: &jar)
            #expect(booked.status == .seeOther)
        }
        await w.f.close()
    }
}

extension TestClientProtocol {
    /// ``web(_:form:jar:headers:)`` with a copy of `jar`, for requests sent at once.
    func web(_ uri: String, form: [(String, String)], jar: WebJar) async throws -> WebAnswerSeen {
        var copy = jar
        return try await web(uri, form: form, jar: &copy)
    }
}
