import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// Booking for a rider who phones (`/dispatch/book`): finding her, and booking through her own
/// form path, on the real router and a real database.
@Suite("The console books for a rider who phones, as she would book herself")
struct WebDispatchPhoneTests {
    /// ConsoleWorld with one van of one seat and exact promises (one booking takes a time), and more people: bob2 "Bob Rivers"
    /// (whitelisted), cat3 "Cat Rivera" (not whitelisted), eve4 on the whitelist without an account.
    static func world() async throws -> ConsoleWorld {
        let w = try await ConsoleWorld()
        try await w.f.activeRider("bob2")
        try await w.f.activeRider("cat3")
        _ = try await w.f.whitelist.add(WhitelistPatch(netID: try NetID("bob2")), actor: "office")
        try await w.f.database.pool.withConnection { conn in
            // One van, one seat: one booking takes a time (shared rides have their own tests).
            try conn.execute("UPDATE vans SET active = false WHERE name > 'Van 1'")
            try conn.execute("UPDATE vans SET seats = 1 WHERE name = 'Van 1'")
            try conn.execute(
                """
                INSERT INTO settings (key, value, updated_by) VALUES ('scheduler', '{"windowMinutes": 0, "stepMinutes": 5}', 'test')
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """)
            try conn.execute("UPDATE riders SET name = 'Bob Rivers' WHERE net_id = 'bob2'")
            try conn.execute("UPDATE riders SET name = 'Cat Rivera' WHERE net_id = 'cat3'")
            try conn.execute("INSERT INTO whitelist (net_id, name, added_by) VALUES ('eve4', 'Eve Riverton', 'office')")
        }
        return w
    }

    /// A form as both the rider's `/book` and the console send it: Monday 2026-11-30.
    static func form(
        pickup: String = "SCL", dropoff: String = "Davenport", time: String = "10:00", arrive: Bool = false,
        companions: String = "0", date: String = "2026-11-30"
    ) -> [(String, String)] {
        [
            ("pickup", pickup), ("dropoff", dropoff), ("date", date), ("time", time), ("time_is", arrive ? "arrive" : "pickup"),
            ("companions", companions), ("note", ""),
        ]
    }

    static func signIn(_ client: some TestClientProtocol, _ netID: String, jar: inout WebJar) async throws -> String {
        #expect(try await client.webSignIn(netID, jar: &jar).status == .seeOther)
        return try #require(try await client.web("/service", jar: &jar).csrf)
    }

    /// A ride's stored request and plan, comparable across two databases loaded alike.
    static func stored(_ id: UUID, _ w: ConsoleWorld) async throws -> String {
        try await w.f.database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT concat_ws('|', net_id, kind, promise, window_start, window_end, pickup_at, estimated_dropoff_at, pickup_place_id,
                                 dropoff_place_id, companions, note, needs_wheelchair, status, van_id)
                FROM rides WHERE id = \(id)
                """
            ).first!.decode(String.self, at: 0)
        }
    }

    /// The ride id at the end of a redirect (`/rides/<id>…` or `/dispatch/book/<netid>/rides/<id>`).
    static func rideID(_ answer: WebAnswerSeen) throws -> UUID {
        let location = try #require(answer.headers[.location], "no redirect: \(answer.status) \(answer.body.prefix(300))")
        let tail = try #require(location.range(of: "/rides/"), "\(location)")
        return try #require(UUID(uuidString: String(location[tail.upperBound...].prefix(36))), "\(location)")
    }

    /// What a taken time's answer says: the sentence, and each suggestion's label and the
    /// fields its one-tap form sends (without the per-page CSRF and form keys).
    static func conflict(_ body: String) -> (sentence: String, suggestions: [String]) {
        guard let start = body.range(of: #"<div class="conflict""#) else { return ("", []) }
        var part = String(body[start.lowerBound...])
        if let end = part.range(of: "</div>") { part = String(part[..<end.lowerBound]) }
        let sentence = part.firstMatch(of: /<p class="sentence">([^<]*)<\/p>/).map { String($0.1) } ?? ""
        let forms = part.split(separator: "<form ").dropFirst().map { form -> String in
            let end = form.range(of: "</form>").map { String(form[..<$0.lowerBound]) } ?? String(form)
            let fields = end.matches(of: /name="([a-z_]+)" value="([^"]*)"/).map { "\($0.1)=\($0.2)" }
                .filter { !$0.hasPrefix("csrf=") && !$0.hasPrefix("form_key=") }.sorted()
            let label = end.firstMatch(of: /<button type="submit">([^<]*)<\/button>/).map { String($0.1) } ?? ""
            return label + " " + fields.joined(separator: "&")
        }
        return (sentence, forms)
    }

    /// The first suggestion's one-tap form: where it posts and what it sends.
    static func firstSuggestion(_ body: String) throws -> (action: String, form: [(String, String)]) {
        let start = try #require(body.range(of: #"<div class="conflict""#))
        let form = try #require(String(body[start.lowerBound...]).firstMatch(of: /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/))
        let fields = String(form.2).matches(of: /name="([a-z_]+)" value="([^"]*)"/).map { (String($0.1), String($0.2)) }
        return (String(form.1), fields)
    }

    /// The form fields the page marks invalid, and their messages.
    static func errors(_ body: String) -> [String] {
        body.matches(of: /<p class="error" id="([a-z_]+)-error"><span class="vh">Error: <\/span>([^<]*)/).map { "\($0.1): \($0.2)" }.sorted()
    }

    static func names(_ body: String) -> Set<String> {
        Set(body.matches(of: /name="([a-z_]+)"/).map { String($0.1) })
    }

    // MARK: Finding her

    @Test func theDispatcherFindsARiderByNetIDOrPartOfTheNameButNeverStaff() async throws {
        let w = try await Self.world()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await Self.signIn(client, "dee1", jar: &jar)
            let byNetID = try await client.web("/dispatch/book?q=ANN1", jar: &jar)
            #expect(byNetID.status == .ok)
            #expect(
                byNetID.body.contains(#"<th scope="row"><bdi>Ann Rivera</bdi></th>"#) && byNetID.body.contains("<td>ann1</td>")
                    && byNetID.body.contains("<td>203-555-0111</td>"))
            #expect(byNetID.body.contains(#"<a href="/dispatch/book/ann1">Book for <bdi>Ann Rivera</bdi></a>"#))
            #expect(byNetID.body.contains("1 rider matching"))
            // As a browser's GET form sends a name: a space as "+".
            let fullName = try await client.web("/dispatch/book?q=ann+RIVERA", jar: &jar)
            #expect(fullName.body.contains("1 rider matching") && fullName.body.contains(#"<th scope="row"><bdi>Ann Rivera</bdi></th>"#))

            let byName = try await client.web("/dispatch/book?q=rIVe", jar: &jar)
            #expect(byName.status == .ok)
            for name in ["Ann Rivera", "Bob Rivers", "Cat Rivera", "Eve Riverton"] {
                #expect(byName.body.contains(#"<th scope="row"><bdi>\#(name)</bdi></th>"#), "\(name) not listed")
            }
            #expect(byName.body.contains(#"<a href="/dispatch/book/bob2">"#))
            // Not cleared: said so, and why; no link to book.
            #expect(byName.body.contains("<strong>Not cleared.</strong> Not on the whitelist"))
            #expect(!byName.body.contains(#"href="/dispatch/book/cat3""#) && !byName.body.contains(#"href="/dispatch/book/eve4""#))
            #expect(byName.body.contains("no account yet"))

            // Drivers and dispatchers are never listed, by name or net ID.
            for q in ["Dana", "dana1", "Dee", "dee1", "Driver", "Dispatcher"] {
                let staff = try await client.web("/dispatch/book?q=\(q)", jar: &jar)
                #expect(staff.status == .ok)
                #expect(staff.body.contains("No rider matches") && !staff.body.contains("<tbody>"), "\(q) listed staff")
            }
            // Text is text: a wildcard or a quote matches nothing and breaks nothing.
            for q in ["%25", "_", "%27%3B%20DROP%20TABLE%20riders%3B--"] {
                let odd = try await client.web("/dispatch/book?q=\(q)", jar: &jar)
                #expect(odd.status == .ok && odd.body.contains("No rider matches"), "\(q)")
            }
            #expect(try await w.count("SELECT count(*) FROM riders") == 5)

            // Her form: a rider's only, and a form only when she is cleared.
            #expect(try await client.web("/dispatch/book/dana1", jar: &jar).status == .notFound)
            #expect(try await client.web("/dispatch/book/nobody9", jar: &jar).status == .notFound)
            let cat = try await client.web("/dispatch/book/cat3", jar: &jar)
            #expect(cat.body.contains("Not cleared to book") && !cat.body.contains(#"name="pickup""#))
        }
        await w.f.close()
    }

    @Test func aRiderWhoIsNotClearedIsNotBookedForAndNothingIsWritten() async throws {
        let w = try await Self.world()
        // Cleared on the whitelist, but her account is disabled: she could not see the ride.
        try await w.f.activeRider("fay5")
        _ = try await w.f.whitelist.add(WhitelistPatch(netID: try NetID("fay5")), actor: "office")
        try await w.f.database.pool.withConnection { try $0.execute("UPDATE riders SET disabled = true WHERE net_id = 'fay5'") }
        try await w.application().test(.router) { client in
            var jar = WebJar()
            let csrf = try await Self.signIn(client, "dee1", jar: &jar)
            for netID in ["cat3", "eve4", "fay5"] {
                let answer = try await client.web("/dispatch/book/\(netID)", form: [("csrf", csrf)] + Self.form(), jar: &jar)
                #expect(answer.status == .forbidden, "\(netID)")
                #expect(answer.body.contains("Not cleared to book"))
            }
            #expect(try await client.web("/dispatch/book/fay5", jar: &jar).body.contains("Her account is disabled"))
        }
        #expect(try await w.count("SELECT count(*) FROM rides") == 0)
        #expect(try await w.count("SELECT count(*) FROM audit_log WHERE action = 'book'") == 0)
        await w.f.close()
    }

    // MARK: One booking path

    /// The same requests, booked by the dispatcher for ann in one world and by ann herself (her
    /// web form) in another started alike: the same rides (promise, times, van), the same
    /// refusal sentence and suggestions, the same fields in error.
    @Test func bookingForHerAndHerOwnBookingComeToTheSameAnswers() async throws {
        let console = try await Self.world()
        let own = try await Self.world()
        try await console.application().test(.router) { consoleClient in
            try await own.application().test(.router) { ownClient in
                // bob holds Monday 15:00 on the one van, in both worlds.
                for client in [consoleClient, ownClient] as [any TestClientProtocol] {
                    let bob = try await client.token("bob2", "correct horse battery")
                    #expect(
                        try await client.book(bob, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:00"]).status == .created)
                }
                var deeJar = WebJar(), annJar = WebJar()
                let deeCSRF = try await Self.signIn(consoleClient, "dee1", jar: &deeJar)
                let annCSRF = try await Self.signIn(ownClient, "ann1", jar: &annJar)
                // The console's form has the rider's fields (and when: now or ahead).
                let riderFields = Self.names(try await ownClient.web("/book", jar: &annJar).body)
                let consoleFields = Self.names(try await consoleClient.web("/dispatch/book/ann1", jar: &deeJar).body)
                #expect(consoleFields == riderFields.union(["when"]), "\(consoleFields.symmetricDifference(riderFields))")

                struct Row { let name: String; let now: Bool; let form: [(String, String)] }
                let rows = [
                    Row(name: "ahead", now: false, form: Self.form()),
                    Row(name: "arrive by", now: false, form: Self.form(pickup: "Davenport", dropoff: "SCL", time: "12:00", arrive: true)),
                    Row(name: "now", now: true, form: [("pickup", "SSS"), ("dropoff", "Bass"), ("companions", "0"), ("note", "side door")]),
                    Row(name: "taken", now: false, form: Self.form(time: "15:02")),
                    Row(name: "invalid", now: false, form: Self.form(dropoff: "Nowhere Hall", time: "11:00", companions: "5")),
                    Row(name: "past", now: false, form: Self.form(date: "2026-11-28")),
                ]
                for row in rows {
                    let byDee = try await consoleClient.web(
                        "/dispatch/book/ann1", form: [("csrf", deeCSRF), ("when", row.now ? "now" : "ahead")] + row.form, jar: &deeJar)
                    let byAnn = try await ownClient.web(row.now ? "/ride-now" : "/book", form: [("csrf", annCSRF)] + row.form, jar: &annJar)
                    #expect(byDee.status == byAnn.status, "\(row.name): \(byDee.status) \(byAnn.status)")
                    switch byAnn.status {
                    case .seeOther:
                        let deeRide = try Self.rideID(byDee), annRide = try Self.rideID(byAnn)
                        #expect(byDee.headers[.location] == "/dispatch/book/ann1/rides/\(deeRide.uuidString.lowercased())")
                        #expect(try await Self.stored(deeRide, console) == (try await Self.stored(annRide, own)), "\(row.name)")
                    case .conflict:
                        let deeSaid = Self.conflict(byDee.body), annSaid = Self.conflict(byAnn.body)
                        #expect(annSaid.sentence.contains("occupied") && !annSaid.suggestions.isEmpty, "\(row.name): \(annSaid)")
                        #expect(deeSaid.sentence == annSaid.sentence, "\(row.name)")
                        #expect(deeSaid.suggestions == annSaid.suggestions, "\(row.name)")
                        #expect(byDee.body.contains(#"<form method="post" action="/dispatch/book/ann1">"#))
                    default:
                        #expect(byAnn.status == .unprocessableContent, "\(row.name)")
                        #expect(!Self.errors(byAnn.body).isEmpty)
                        #expect(Self.errors(byDee.body) == Self.errors(byAnn.body), "\(row.name)")
                    }
                }
                #expect(try await console.count("SELECT count(*) FROM rides") == (try await own.count("SELECT count(*) FROM rides")))
            }
        }
        await console.f.close()
        await own.f.close()
    }

    // MARK: Booked for her

    @Test func theAuditAndTheEventsNameTheDispatcherAndSheSeesTheRideAndHearsOfItAsHerOwn() async throws {
        let w = try await Self.world()
        let loop = TriggerLoop(
            pool: w.f.database.pool, settings: EventSettings(), timeZone: w.f.configuration.timeZone,
            clock: w.f.clock, logger: TestCluster.quietLogger)
        try await w.application().test(.router) { client in
            var deeJar = WebJar(), annJar = WebJar()
            let deeCSRF = try await Self.signIn(client, "dee1", jar: &deeJar)
            let annCSRF = try await Self.signIn(client, "ann1", jar: &annJar)
            let ann = try await client.token("ann1", "correct horse battery")
            // Her app's list is read (and kept) before the dispatcher books.
            #expect((try await client.get("/v1/rides", ann).body["rides"] as? [Any])?.count == 0)

            let booked = try await client.web("/dispatch/book/ann1", form: [("csrf", deeCSRF), ("when", "ahead")] + Self.form(), jar: &deeJar)
            let forHer = try Self.rideID(booked)
            let own = try Self.rideID(try await client.web("/book", form: [("csrf", annCSRF)] + Self.form(time: "13:00"), jar: &annJar))
            let id = forHer.uuidString.lowercased()

            // The confirmation: the reference to read out, the time, the van's promise, a link to book another.
            let done = try await client.web("/dispatch/book/ann1/rides/\(id)", jar: &deeJar)
            let ref = try await w.f.database.pool.withConnection {
                try $0.query("SELECT ref FROM rides WHERE id = \(forHer)").first!.decode(String.self, at: 0)
            }
            #expect(done.status == .ok)
            #expect(done.body.contains(#"<span aria-hidden="true">\#(ref)</span>"#))
            #expect(done.body.contains("10:00 AM tomorrow") && done.body.contains("The van picks up at 10:00 AM"))
            #expect(done.body.contains(#"<a class="button" href="/dispatch/book/ann1"><span>Book another ride for <bdi>Ann Rivera</bdi></span></a>"#))
            // Another rider's ride is not shown under her name.
            #expect(try await client.web("/dispatch/book/bob2/rides/\(id)", jar: &deeJar).status == .notFound)

            // Who booked it: the dispatcher, in the audit log and the ride's events; her own booking names her.
            #expect(try await w.auditActors("book") == [ConsoleWorld.dispatcherActor])
            #expect(try await w.count("SELECT count(*) FROM audit_log WHERE action = 'book' AND subject = \(id) AND details->>'rider' = 'ann1'") == 1)
            let actors = try await w.f.database.pool.withConnection { conn in
                try conn.query(
                    "SELECT payload->>'actor' FROM ride_events WHERE kind = 'created' AND ride_id IN (\(forHer), \(own)) ORDER BY ride_id = \(own)"
                )
                .map { try $0.decode(String.self, at: 0) }
            }
            #expect(actors == [ConsoleWorld.dispatcherActor, "ann1"])

            // Hers in her app at once (not a kept copy of the list from before).
            let list = try #require(try await client.get("/v1/rides", ann).body["rides"] as? [[String: Any]])
            #expect(Set(list.compactMap { $0["id"] as? String }) == [id, own.uuidString.lowercased()])
            #expect(try await client.get("/v1/rides/\(id)", ann).status == .ok)

            // The same events and deliveries as her own booking, and the same notification once approved.
            let trail = { (ride: UUID) async throws -> [String] in
                try await w.f.database.pool.withConnection { conn in
                    try conn.query(
                        """
                        SELECT e.kind || ':' || coalesce(string_agg(d.sink, ',' ORDER BY d.sink), '') FROM ride_events e
                        LEFT JOIN deliveries d ON d.event_id = e.id WHERE e.ride_id = \(ride) GROUP BY e.id ORDER BY e.id
                        """
                    ).map { try $0.decode(String.self, at: 0) }
                }
            }
            #expect(try await trail(forHer) == (try await trail(own)))
            #expect(try await trail(forHer).first?.hasPrefix("created:") == true)
            try await w.f.database.pool.withConnection { try $0.execute("UPDATE rides SET status = 'approved' WHERE net_id = 'ann1'") }
            _ = try await loop.runOnce(now: w.f.clock.now)
            let inbox = try #require(try await client.get("/v1/notifications", ann).body["notifications"] as? [[String: Any]])
            let messages = inbox.map { "\($0["kind"] as? String ?? "?"): \($0["message"] as? String ?? "?")" }.sorted()
            #expect(
                messages == [
                    "approved: Your ride from SCL to Davenport on Mon Nov 30 at 10:00 AM is approved.",
                    "approved: Your ride from SCL to Davenport on Mon Nov 30 at 1:00 PM is approved.",
                ])
        }
        await w.f.close()
    }

    @Test func aTakenTimeThenASuggestionTakenBooksItForHer() async throws {
        let w = try await Self.world()
        try await w.application().test(.router) { client in
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await client.book(bob, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:00"]).status == .created)
            var jar = WebJar()
            let csrf = try await Self.signIn(client, "dee1", jar: &jar)
            let page = try await client.web("/dispatch/book/ann1", jar: &jar)
            let key = try #require(page.body.firstMatch(of: /name="form_key" value="([^"]+)"/).map { String($0.1) })
            let taken = try await client.web(
                "/dispatch/book/ann1", form: [("csrf", csrf), ("form_key", key), ("when", "ahead")] + Self.form(time: "15:02"), jar: &jar)
            #expect(taken.status == .conflict)
            #expect(taken.body.contains(#"<div class="conflict" tabindex="-1" data-focus"#))
            #expect(taken.body.contains("The van is occupied at 3:02 PM"))
            #expect(!taken.body.contains("Call the dispatcher"))
            #expect(try await w.count("SELECT count(*) FROM rides WHERE net_id = 'ann1'") == 0)

            let suggestion = try Self.firstSuggestion(taken.body)
            #expect(suggestion.action == "/dispatch/book/ann1")
            #expect(suggestion.form.contains { $0.0 == "csrf" && $0.1 == csrf })
            let time = try #require(suggestion.form.first { $0.0 == "time" }?.1)
            let booked = try await client.web(suggestion.action, form: suggestion.form, jar: &jar)
            #expect(booked.status == .seeOther)
            let id = try Self.rideID(booked)
            let pickup = try await w.f.database.pool.withConnection { conn in
                try conn.query(
                    "SELECT to_char(pickup_at AT TIME ZONE 'America/New_York', 'YYYY-MM-DD HH24:MI') FROM rides WHERE id = \(id) AND net_id = 'ann1'"
                )
                .first!.decode(String.self, at: 0)
            }
            #expect(pickup == "2026-11-30 \(time)")
            #expect(try await w.auditActors("book") == [ConsoleWorld.dispatcherActor])
            // The same one-tap form sent again (a double press) books nothing more.
            let again = try await client.web(suggestion.action, form: suggestion.form, jar: &jar)
            #expect(again.status == .seeOther)
            #expect(try Self.rideID(again) == id)
            #expect(try await w.count("SELECT count(*) FROM rides WHERE net_id = 'ann1'") == 1)
        }
        await w.f.close()
    }

    @Test func fieldErrorsKeepWhatWasTypedFocusTheSummaryAndChangeNothing() async throws {
        let w = try await Self.world()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            let csrf = try await Self.signIn(client, "dee1", jar: &jar)
            let before = try await w.count(
                "SELECT (SELECT count(*) FROM rides) + (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM ride_events)")
            let answer = try await client.web(
                "/dispatch/book/ann1",
                form: [
                    ("csrf", csrf), ("when", "ahead"), ("pickup", "SCL"), ("dropoff", "Nowhere Hall"),
                    ("date", "2026-11-30"), ("time", ""), ("time_is", "arrive"),
                    ("companions", "1"), ("note", "ramp & <door>"),
                ], jar: &jar)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.body.contains(#"<div class="error-summary" tabindex="-1" data-focus"#))
            #expect(
                Self.errors(answer.body).contains { $0.hasPrefix("dropoff: ") }
                    && Self.errors(answer.body).contains("time: Enter the time you must arrive by"))
            #expect(answer.body.contains(#"value="Nowhere Hall""#) && answer.body.contains(#"value="2026-11-30""#))
            #expect(answer.body.contains("ramp &amp; &lt;door&gt;</textarea>"))
            #expect(answer.body.contains(#"id="time_is-arrive" name="time_is" type="radio" value="arrive" checked"#))
            #expect(answer.body.contains(#"<option value="1" selected>"#))
            #expect(answer.body.contains("<title>Error: Book for Ann Rivera"))
            #expect(
                try await w.count("SELECT (SELECT count(*) FROM rides) + (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM ride_events)")
                    == before)
            // Without a valid CSRF token nothing is read.
            let forged = try await client.web("/dispatch/book/ann1", form: [("csrf", "forged")] + Self.form(), jar: &jar)
            #expect(forged.status == .forbidden)
            #expect(try await w.count("SELECT count(*) FROM rides") == 0)
        }
        await w.f.close()
    }

    @Test func aWeeklySeriesForHerListsEachRideBooked() async throws {
        let w = try await Self.world()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            let csrf = try await Self.signIn(client, "dee1", jar: &jar)
            let form =
                [("csrf", csrf), ("when", "ahead")] + Self.form(time: "17:00")
                + [("repeat", "yes"), ("repeat_days", "mon"), ("repeat_days", "wed"), ("repeat_until", "2026-12-09")]
            let answer = try await client.web("/dispatch/book/ann1", form: form, jar: &jar)
            #expect(answer.status == .ok)
            #expect(answer.body.contains("4 rides booked"))
            let refs = try await w.f.database.pool.withConnection { conn in
                try conn.query("SELECT ref FROM rides WHERE net_id = 'ann1' AND series_id IS NOT NULL").map { try $0.decode(String.self, at: 0) }
            }
            #expect(refs.count == 4)
            for ref in refs { #expect(answer.body.contains(#"<span aria-hidden="true">\#(ref)</span>"#)) }
            #expect(try await w.auditActors("book") == Array(repeating: ConsoleWorld.dispatcherActor, count: 4))
        }
        await w.f.close()
    }
}
