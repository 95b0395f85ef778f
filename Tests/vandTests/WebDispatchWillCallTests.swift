import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanPostgres
import VanServices
import VanTestSupport
@testable import vand

/// The console's will-calls, on the real router and a real database (ConsoleWorld: Sunday
/// 2026-11-29 07:00 New York, dee1 signed in): booked by phone with the box ticked, "She's ready
/// (called by phone)" on the ride's page, and the day board's "Will-calls open".
@Suite("Will-call ways back in the dispatcher's console")
struct WebDispatchWillCallTests {
    /// Books SCL → Davenport for `rider` at `time` with a will-call way back from Davenport, through
    /// the one booking path, and approves it as a dispatcher would; the ride there as stored.
    static func willCallRide(_ w: ConsoleWorld, _ rider: String, _ time: Date) async throws -> Ride {
        let pool = w.f.database.pool
        let booking = BookingService(pool: pool, timeZone: w.configuration.timeZone)
        let (from, to): (Int64, Int64) = try await pool.withConnection { conn in
            (
                try conn.query("SELECT id FROM places WHERE name = 'Sterling Chemistry Lab'").first!.decode(at: 0),
                try conn.query("SELECT id FROM places WHERE name = 'Davenport College'").first!.decode(at: 0)
            )
        }
        let dropoff = RideEndpoint(coordinate: WebDispatchBoardTests.davenport, placeID: to, placeName: "Davenport College")
        let new = NewRide(
            id: .timeOrdered(at: w.f.clock.now), netID: try NetID(rider),
            pickup: RideEndpoint(coordinate: WebDispatchBoardTests.scl, placeID: from, placeName: "Sterling Chemistry Lab"),
            dropoff: dropoff, pickupAt: time)
        guard case .booked(let ride)? = try await booking.bookSeries([new], now: w.f.clock.now, willCall: dropoff).first else {
            throw TestFailure("could not book \(rider) at \(time)")
        }
        return try await DispatchService(pool: pool, timeZone: w.configuration.timeZone).approve(
            ride.id.uuidString, actor: "office", now: w.f.clock.now)
    }

    /// The driver dropped her off: the ride there is over.
    static func dropOff(_ w: ConsoleWorld, _ ride: Ride) async throws {
        try await w.f.database.pool.withConnection { try $0.execute("UPDATE rides SET status = 'completed' WHERE id = \(ride.id)") }
    }

    /// The rows of the board's "Will-calls open" table, each row's cells as text (tags stripped).
    static func willCallRows(_ body: String) -> [[String]] {
        guard let start = body.range(of: #"<table class="dispatch will-calls">"#),
            let tbody = body[start.upperBound...].range(of: "<tbody>"), let end = body[tbody.upperBound...].range(of: "</tbody>")
        else { return [] }
        return body[tbody.upperBound..<end.lowerBound].components(separatedBy: "</tr>").compactMap { row in
            let cells = row.split(separator: #/<t[hd][^>]*>/#, omittingEmptySubsequences: false).dropFirst().map { cell in
                cell.replacing(#/<[^>]+>/#, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return cells.isEmpty ? nil : cells
        }
    }

    func signedIn(_ client: some TestClientProtocol) async throws -> WebJar {
        var jar = WebJar()
        #expect(try await client.webSignIn("dee1", jar: &jar).headers[.location] == "/dispatch")
        return jar
    }

    @Test func thePhoneBookingTakesAWillCallAndItsConfirmationSaysSo() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/book/ann1", jar: &jar)
            #expect(page.body.contains(#"<label for="will_call">She'll call when she's ready</label>"#), "\(page.body)")
            let form =
                [("csrf", try #require(page.csrf)), ("form_key", UUID().uuidString), ("when", "ahead"), ("will_call", "yes")]
                + WebDispatchPhoneTests.form(time: "09:00")
            let booked = try await client.web("/dispatch/book/ann1", form: form, jar: &jar)
            #expect(booked.status == .seeOther, "\(booked.body)")
            let id = try WebDispatchPhoneTests.rideID(booked)
            let done = try await client.web(try #require(booked.headers[.location]), jar: &jar)
            #expect(done.body.contains("<dt>Way back</dt><dd>A will-call: she taps I'm ready"), "\(done.body)")
            #expect(try await w.count("SELECT count(*) FROM will_calls WHERE ride_id = \(id) AND net_id = 'ann1'") == 1)
            #expect(try await w.count("SELECT count(*) FROM rides") == 1, "only the ride there is booked")
        }
        await w.f.close()
    }

    @Test func shesReadyByPhoneBooksHerWayBackInTheDispatchersName() async throws {
        let w = try await ConsoleWorld()
        let there = try await Self.willCallRide(w, "ann1", w.at(9, 0))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let path = "/dispatch/rides/\(there.ref.rawValue)"
            let early = try await client.web(path, jar: &jar)
            #expect(early.body.contains("She will call when she is ready, from <bdi>Davenport College</bdi>."), "\(early.body)")
            #expect(early.body.contains("Her ride there is not over yet") && !early.body.contains(#"action="\#(path)/ready""#))

            try await Self.dropOff(w, there)
            w.f.clock.set(w.at(10, 0))
            let over = try await client.web(path, jar: &jar)
            #expect(over.body.contains(#"<form method="post" action="\#(path)/ready" aria-labelledby="will-call-heading">"#), "\(over.body)")
            #expect(over.body.contains("<button type=\"submit\">She's ready (called by phone)</button>"))

            let forged = try await client.web("\(path)/ready", form: [("csrf", "forged")], jar: &jar)
            #expect(forged.status == .forbidden)
            #expect(try await w.count("SELECT count(*) FROM rides WHERE return_of = \(there.id)") == 0)

            let ready = try await client.web("\(path)/ready", form: [("csrf", try #require(over.csrf))], jar: &jar)
            #expect(ready.status == .seeOther)
            let location = try #require(ready.headers[.location])
            let backRef = try #require(location.firstMatch(of: #/^/dispatch/rides/([0-9A-Z-]+)\?done=ready$/#)?.1, "\(location)")
            let back = try await client.web(location, jar: &jar)
            #expect(back.body.contains("She is ready: this is her way back, booked now."), "\(back.body)")
            #expect(back.body.contains("<dt>From</dt><dd><bdi>Davenport College</bdi></dd>"))
            let after = try await client.web(path, jar: &jar)
            #expect(
                after.body.contains(
                    #"She called for it: ready at 10:00 AM, said by Dee Dispatcher (dee1). Her way back: <a href="/dispatch/rides/\#(backRef)">"#),
                "\(after.body)")
            #expect(!after.body.contains(#"action="\#(path)/ready""#))
            let again = try await client.web("\(path)/ready", form: [("csrf", try #require(after.csrf))], jar: &jar)
            #expect(again.headers[.location] == "/dispatch/rides/\(backRef)?done=ready-already")
        }
        #expect(try await w.count("SELECT count(*) FROM rides WHERE return_of = \(there.id) AND kind = 'on_demand'") == 1)
        #expect(try await w.count("SELECT count(*) FROM will_calls WHERE ready_by = 'Dee Dispatcher (dee1)'") == 1)
        #expect(try await w.auditActors("ride.ready_for_rider") == [ConsoleWorld.dispatcherActor])
        await w.f.close()
    }

    @Test func theBoardListsOpenWillCallsWithTheirAgeButNotOnesCalledForOrOff() async throws {
        let w = try await ConsoleWorld()
        try await WebDispatchBoardTests.bob(w)
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let none = try await client.web("/dispatch/board", jar: &jar)
            #expect(none.body.contains(#"<h2 id="will-calls-heading">Will-calls open</h2>"#) && none.body.contains("No will-calls open."))
        }
        let over = try await Self.willCallRide(w, "ann1", w.at(9, 0))
        let toCome = try await Self.willCallRide(w, "bob2", w.at(14, 0))
        let calledOff = try await Self.willCallRide(w, "ann1", w.at(13, 0))
        let calledFor = try await Self.willCallRide(w, "bob2", w.at(8, 0))
        _ = try await RiderRides(pool: w.f.database.pool).cancel(
            calledOff.id, for: calledOff.netID, now: w.f.clock.now, lateWithin: 3_600, withReturn: true)
        try await Self.dropOff(w, over)
        try await Self.dropOff(w, calledFor)
        w.f.clock.set(w.at(10, 0))
        let booking = BookingService(pool: w.f.database.pool, timeZone: w.configuration.timeZone)
        guard case .booked = try await booking.ready(calledFor.id, netID: calledFor.netID, actor: "bob2", now: w.f.clock.now) else {
            Issue.record("bob's way back was not booked")
            return
        }
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let board = try await client.web("/dispatch/board", jar: &jar)
            #expect(board.status == .ok)
            let rows = Self.willCallRows(board.body)
            let age = Int(w.at(10, 0).timeIntervalSince(over.estimatedDropoffAt) / 60)
            #expect(age > 1)
            #expect(
                rows == [
                    ["Ann Rivera (ann1)", "Davenport College", "\(over.ref.rawValue), Completed, 9:00 AM", "\(age) minutes"],
                    ["Bob Okafor (bob2)", "Davenport College", "\(toCome.ref.rawValue), Approved, 2:00 PM", "ride there at 2:00 PM"],
                ], "\(rows)")
            #expect(board.body.contains(#"<a href="/dispatch/rides/\#(over.ref.rawValue)">"#))
            #expect(!board.body.contains("No will-calls open."))
            // The live redraw keeps the section.
            let part = try await client.web("/dispatch/board/part", jar: &jar)
            #expect(Self.willCallRows(part.body).count == 2)
            // A van's page of stops is about its van: the list is the fleet summary's.
            let vanPage = try await client.web("/dispatch/board?van=\(try #require(toCome.vanID))", jar: &jar)
            #expect(vanPage.status == .ok && !vanPage.body.contains("will-calls-heading"))
            // A day before their rides there: none yet.
            let yesterday = try await client.web("/dispatch/board?day=2026-11-28", jar: &jar)
            #expect(yesterday.body.contains("No will-calls open."))
        }
        await w.f.close()
    }
}
