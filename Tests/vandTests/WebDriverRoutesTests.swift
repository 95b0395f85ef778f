import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanScheduler
import VanPostgres
import VanTestSupport
@testable import vand

/// Van 1 alone, open all day; a driver (dana1) and a rider (ann1, phone 203-555-0111) whose ride
/// from SCL at 10:30 today (Sunday 2026-11-29, the manual clock's day) is approved on Van 1.
struct DriverWorld {
    let f: RouterFixture
    /// The fixture's configuration with rides approved at once.
    let configuration: AppConfiguration
    /// The clock's start: Sunday 2026-11-29 07:00 in New York.
    let start: Date

    init() async throws {
        f = try await RouterFixture()
        start = f.clock.now
        let pool = f.database.pool
        _ = try await DemoData.load(into: pool, actor: "test")
        try await pool.withConnection { try $0.execute("UPDATE vans SET active = false WHERE name <> 'Van 1'") }
        try await ServiceCalendarStore(pool: pool, timeZone: f.configuration.timeZone)
            .setHours(try (1...7).map { try ServiceWindow(weekday: $0, start: "00:00", end: "24:00") }, actor: "office")
        try await f.activeRider("ann1")
        _ = try await f.whitelist.add(WhitelistPatch(netID: try NetID("ann1")), actor: "office")
        try await f.activeRider("dana1")
        try await pool.withConnection { conn in
            try conn.execute("UPDATE riders SET name = 'Ann Rivera', phone = '203-555-0111' WHERE net_id = 'ann1'")
            try conn.execute("UPDATE riders SET name = 'Dana Driver', role = 'driver' WHERE net_id = 'dana1'")
        }
        var configuration = f.configuration
        configuration.booking.autoApprove = true
        self.configuration = configuration
    }

    /// The production routes on this world's configuration, database and clock.
    func application() -> some ApplicationProtocol {
        f.application(buildRoutes(configuration: configuration, database: f.database, clock: f.clock))
    }

    /// The clock at hh:mm today in New York.
    func at(_ hour: Int, _ minute: Int) -> Date {
        start.addingTimeInterval(TimeInterval((hour - 7) * 3600 + minute * 60))
    }

    func count(_ sql: SQLQuery) async throws -> Int {
        try await f.database.pool.withConnection { try $0.query(sql).first!.decode(Int.self, at: 0) }
    }

    func rideStatus() async throws -> String {
        try await f.database.pool.withConnection { try $0.query("SELECT status FROM rides").first!.decode(String.self, at: 0) }
    }
}

extension WebAnswerSeen {
    /// The hidden fields of every form posting to `action`, in page order.
    func forms(_ action: String) -> [[String: String]] {
        var forms: [[String: String]] = []
        var rest = body[...]
        while let open = rest.range(of: #"<form method="post" action="\#(action)""#) {
            let after = rest[open.upperBound...]
            guard let close = after.range(of: "</form>") else { break }
            let form = after[..<close.lowerBound]
            var fields: [String: String] = [:]
            for match in form.matches(of: #/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/#) {
                fields[String(match.1)] = String(match.2)
            }
            if let button = form.firstMatch(of: #/<button type="submit" class="([^"]+)"/#) { fields["button"] = String(button.1) }
            forms.append(fields)
            rest = after[close.upperBound...]
        }
        return forms
    }

    /// The tap form of the next stop for `action`.
    func tapForm(_ action: String) -> [(String, String)]? {
        guard let form = forms("/driver/taps").first(where: { $0["action"] == action }) else { return nil }
        return ["csrf", "key", "ride", "stop", "action", "lat", "lon", "accuracy"].map { ($0, form[$0] ?? "") }
    }
}

extension [(String, String)] {
    /// The form with `name` set to `value`.
    func with(_ name: String, _ value: String) -> [(String, String)] {
        map { $0.0 == name ? ($0.0, value) : $0 }
    }
}

@Suite("The driver's web pages on the real router and a real database")
struct WebDriverRoutesTests {
    /// Signs the rider in, books her 10:30 ride (approved at once on Van 1), signs the driver in and starts her shift.
    static func startDay(_ w: DriverWorld, _ client: some TestClientProtocol, driver jar: inout WebJar) async throws {
        let token = try await client.token("ann1", "correct horse battery")
        let booked = try await client.book(token, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-29T10:30", "note": "Side door"])
        #expect(booked.status == .created && booked.body["status"] as? String == "approved")
        let signedIn = try await client.webSignIn("dana1", jar: &jar)
        #expect(signedIn.headers[.location] == "/driver")
        let start = try await client.web("/driver", jar: &jar)
        #expect(start.status == .ok && start.body.contains("Start your shift") && start.body.contains("Van 1"))
        let van = try #require(start.body.firstMatch(of: #/name="van" type="radio" value="(\d+)"/#)?.1)
        let started = try await client.web("/driver/shift", form: [("csrf", start.csrf ?? ""), ("van", String(van))], jar: &jar)
        #expect(started.status == .seeOther && started.headers[.location] == "/driver")
    }

    @Test func aDriverLandsOnHerRunAndARiderIsRefusedEveryDriverRoute() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var driver = WebJar()
            #expect(try await client.webSignIn("dana1", jar: &driver).headers[.location] == "/driver")
            let home = try await client.web("/", jar: &driver)
            #expect(home.status == .seeOther && home.headers[.location] == "/driver")
            let book = try await client.web("/book", jar: &driver)
            #expect(book.status == .forbidden && book.body.contains("Not for this kind of account") && book.body.contains("/driver"))

            var rider = WebJar()
            #expect(try await client.webSignIn("ann1", jar: &rider).headers[.location] == "/")
            let page = try await client.web("/driver", jar: &rider)
            #expect(
                page.status == .forbidden && page.body.contains("<h1>Not for this kind of account</h1>")
                    && page.body.contains("Only a driver on shift uses this."))
            // In the app's style: the rider's own navigation and the sign-out button.
            #expect(page.body.contains(#"href="/rides""#) && page.body.contains(#"action="/sign-out""#))
            let csrf = try #require(page.csrf)
            for (path, form) in [
                ("/driver/run", nil), ("/driver/end", nil), ("/driver/shift", [("csrf", csrf), ("van", "1")]),
                ("/driver/taps", [("csrf", csrf)]), ("/driver/undo", [("csrf", csrf)]), ("/driver/shift/end", [("csrf", csrf)]),
            ] as [(String, [(String, String)]?)] {
                let answer = try await client.web(path, form: form, jar: &rider)
                #expect(answer.status == .forbidden, "\(path) answered a rider \(answer.status)")
            }
            #expect(try await w.count("SELECT count(*) FROM shifts") == 0)
        }
        await w.f.close()
    }

    @Test func theRunShowsTheNextStopLargeWithNamedButtonsAndTapToCall() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            try await Self.startDay(w, client, driver: &jar)
            w.f.clock.set(w.at(10, 20))
            let run = try await client.web("/driver", jar: &jar)
            #expect(run.status == .ok && run.body.contains("<h1>Van 1: today's run</h1>"))
            #expect(run.body.contains("Next: Pick up") && run.body.contains("Ann R.") && run.body.contains("Sterling Chemistry Lab"))
            #expect(run.body.contains("10:30 AM to 10:45 AM") && run.body.contains("Side door"))
            #expect(run.body.contains(#"href="tel:2035550111""#))
            #expect(run.body.contains(#"Arrived<span class="vh"> at Sterling Chemistry Lab to pick up Ann R.</span>"#))
            #expect(run.body.contains("Later stops (1)") && run.body.contains("Drop off"))
            #expect(!run.body.contains("<script>") && !run.body.contains(" style="))
            #expect(run.body.contains("/static/driver.css?v=") && run.body.contains("/static/driver.js?v="))
            // The rider's navigation and live notifications are not the driver's.
            #expect(!run.body.contains(#"href="/book""#) && !run.body.contains("data-after="))
            // The same run alone, for the page's script.
            let part = try await client.web("/driver/run", jar: &jar)
            #expect(part.status == .ok && part.body.contains("next-heading") && !part.body.contains("<html"))
        }
        await w.f.close()
    }

    /// Issue 33, item 3, on the web: a page left open past the end of the shift (the dispatcher
    /// ended it) sends its undo; the start page says it was not recorded and why, and the tap stands.
    @Test func anUndoFromAPageLeftOpenAfterTheShiftEndedSaysWhyOnTheStartPage() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            try await Self.startDay(w, client, driver: &jar)
            w.f.clock.set(w.at(10, 31))
            let arrived = try #require(try await client.web("/driver", jar: &jar).tapForm("arrived"))
            #expect(try await client.web("/driver/taps", form: arrived, jar: &jar).status == .seeOther)
            let undo = try #require(try await client.web("/driver", jar: &jar).forms("/driver/undo").first)
            _ = try await ShiftService(pool: w.f.database.pool, clock: w.f.clock).end(vanNamed: "Van 1", actor: "dana")
            w.f.clock.advance(by: 30)
            let refused = try await client.web("/driver/undo", form: [("csrf", undo["csrf"] ?? ""), ("tap", undo["tap"] ?? "")], jar: &jar)
            #expect(refused.status == .conflict)
            #expect(refused.body.contains("Start your shift"), "\(refused.body)")
            #expect(
                refused.body.contains("Not recorded: The shift this tap was made on has ended, so it can no longer be undone; tell the dispatcher."),
                "\(refused.body)")
            #expect(try await w.count("SELECT count(*) FROM stop_taps WHERE undone_at IS NULL") == 1)
        }
        await w.f.close()
    }

    @Test func aDoubleOrRetriedTapPostIsAppliedOnceEvenManyAtOnce() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            try await Self.startDay(w, client, driver: &jar)
            w.f.clock.set(w.at(10, 31))
            let run = try await client.web("/driver", jar: &jar)
            let arrived = try #require(run.tapForm("arrived"))
            // The same form sent twice (a double submit, a retried POST): one tap.
            for _ in 0..<2 {
                let answer = try await client.web("/driver/taps", form: arrived, jar: &jar)
                #expect(answer.status == .seeOther && answer.headers[.location] == "/driver")
            }
            #expect(try await w.count("SELECT count(*) FROM stop_taps") == 1)
            // The next form, sent by eight clients at once: one tap.
            let boarded = try #require(try await client.web("/driver", jar: &jar).tapForm("boarded"))
            let cookies = jar
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var mine = cookies
                        return try await client.web("/driver/taps", form: boarded, jar: &mine).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .seeOther }, "\(statuses)")
            #expect(try await w.count("SELECT count(*) FROM stop_taps WHERE action = 'boarded'") == 1)
            // A second page's form for the same action (another key): already done, nothing new.
            let again = try await client.web("/driver/taps", form: boarded.with("key", UUID().uuidString.lowercased()), jar: &jar)
            #expect(again.status == .seeOther)
            #expect(try await w.count("SELECT count(*) FROM stop_taps") == 2)
            // Undone, then the first form retried (a network retry arriving late): its key answers the
            // first tap, so the rider is not put on board again.
            let undo = try #require(try await client.web("/driver", jar: &jar).forms("/driver/undo").first)
            #expect(
                try await client.web("/driver/undo", form: [("csrf", undo["csrf"] ?? ""), ("tap", undo["tap"] ?? "")], jar: &jar).status == .seeOther)
            #expect(try await client.web("/driver/taps", form: boarded, jar: &jar).status == .seeOther)
            #expect(try await w.count("SELECT count(*) FROM stop_taps WHERE action = 'boarded' AND undone_at IS NULL") == 0)
        }
        await w.f.close()
    }

    @Test func formsWithoutTheirCSRFTokenAreRefusedAndChangeNothing() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("dana1", jar: &jar)
            let start = try await client.web("/driver", jar: &jar)
            let van = try #require(start.body.firstMatch(of: #/name="van" type="radio" value="(\d+)"/#)?.1)
            for csrf in ["", "forged"] {
                let answer = try await client.web("/driver/shift", form: [("csrf", csrf), ("van", String(van))], jar: &jar)
                #expect(answer.status == .forbidden && answer.body.contains("This form has expired"))
            }
            #expect(try await w.count("SELECT count(*) FROM shifts") == 0)
            jar = WebJar()
            try await Self.startDay(w, client, driver: &jar)
            w.f.clock.set(w.at(10, 31))
            let arrived = try #require(try await client.web("/driver", jar: &jar).tapForm("arrived"))
            for csrf in ["", "forged"] {
                let answer = try await client.web("/driver/taps", form: arrived.with("csrf", csrf), jar: &jar)
                #expect(answer.status == .forbidden && answer.body.contains("This form has expired"))
            }
            #expect(try await w.count("SELECT count(*) FROM stop_taps") == 0)
            // The position endpoint takes its token in a header: without it, nothing is recorded.
            let position = ByteBuffer(string: #"{"lat": 41.3163, "lon": -72.9224, "accuracy_m": 10}"#)
            for headers: HTTPFields in [
                [.cookie: jar.header, .contentType: "application/json"],
                [.cookie: jar.header, .contentType: "application/json", .init(WebDriverRoutes.csrfHeader)!: "forged"],
            ] {
                try await client.execute(uri: "/driver/positions", method: .post, headers: headers, body: position) { response in
                    #expect(response.status == .forbidden)
                }
            }
            #expect(try await w.count("SELECT count(*) FROM van_positions") == 0)
            let csrf = try #require(arrived.first { $0.0 == "csrf" }?.1)
            try await client.execute(
                uri: "/driver/positions", method: .post,
                headers: [.cookie: jar.header, .contentType: "application/json", .init(WebDriverRoutes.csrfHeader)!: csrf], body: position
            ) { response in
                #expect(response.status == .noContent)
            }
            #expect(try await w.count("SELECT count(*) FROM van_positions WHERE source = 'driver'") == 1)
        }
        await w.f.close()
    }

    @Test func aNoShowBeforeTheWaitIsRefusedNextToTheActionAndAllowedAfterIt() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            try await Self.startDay(w, client, driver: &jar)
            w.f.clock.set(w.at(10, 31))
            let arrived = try #require(try await client.web("/driver", jar: &jar).tapForm("arrived"))
            #expect(try await client.web("/driver/taps", form: arrived, jar: &jar).status == .seeOther)
            let waiting = try await client.web("/driver", jar: &jar)
            // Arrived at 10:31, inside the window from 10:30: the wait runs to 10:36.
            #expect(waiting.body.contains("No-show possible at 10:36 AM") && waiting.body.contains(#"data-countdown="#))
            #expect(waiting.body.contains("The van waits 5 minutes from the start of the pickup window"), "the wait's explanation reads wrong")
            // What the live region says when the wait ends: one full stop after the initial (issue 33: "Ann R..").
            let done = try #require(waiting.body.firstMatch(of: /data-done="([^"]*)"/)?.1)
            #expect(done.hasPrefix("No-show is now possible for ") && done.hasSuffix(".") && !done.hasSuffix(".."), "\(done)")
            #expect(waiting.tapForm("no_show") == nil && waiting.tapForm("boarded") != nil)
            // A no-show sent anyway (an old page): refused by the action, the run as it was.
            let early = try #require(waiting.tapForm("boarded")).with("action", "no_show").with("key", UUID().uuidString.lowercased())
            let refused = try await client.web("/driver/taps", form: early, jar: &jar)
            #expect(refused.status == .conflict)
            let sentence = "No-show is possible from 10:36 AM, after the 5-minute wait."
            let refusal = try #require(refused.body.range(of: sentence))
            let section = try #require(refused.body.range(of: #"<section class="next-stop""#))
            let buttons = try #require(refused.body.range(of: #"<ul class="taps">"#))
            #expect(section.lowerBound < refusal.lowerBound && refusal.lowerBound < buttons.lowerBound, "the refusal is not by the action")
            #expect(refused.tapForm("boarded") != nil && refused.body.contains("Ann R."))
            #expect(try await w.rideStatus() == "approved")
            w.f.clock.set(w.at(10, 36))
            let allowed = try await client.web("/driver", jar: &jar)
            let noShow = try #require(allowed.tapForm("no_show"))
            #expect(try await client.web("/driver/taps", form: noShow, jar: &jar).status == .seeOther)
            #expect(try await w.rideStatus() == "no_show")
            let after = try await client.web("/driver", jar: &jar)
            #expect(after.body.contains("Ann R. is marked a no-show at Sterling Chemistry Lab, 10:36 AM.") && after.body.contains("No stops left"))
        }
        await w.f.close()
    }

    @Test func aTapCanBeUndoneForTwoMinutes() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            try await Self.startDay(w, client, driver: &jar)
            w.f.clock.set(w.at(10, 31))
            let arrive = try #require(try await client.web("/driver", jar: &jar).tapForm("arrived"))
            #expect(try await client.web("/driver/taps", form: arrive, jar: &jar).status == .seeOther)
            let board = try #require(try await client.web("/driver", jar: &jar).tapForm("boarded"))
            #expect(try await client.web("/driver/taps", form: board, jar: &jar).status == .seeOther)
            let boarded = try await client.web("/driver", jar: &jar)
            #expect(boarded.body.contains("Ann R. is on board at Sterling Chemistry Lab, 10:31 AM."))
            #expect(boarded.body.contains(#"Undo<span class="vh"> on board: Ann R. at Sterling Chemistry Lab</span>"#))
            let undo = try #require(boarded.forms("/driver/undo").first)
            w.f.clock.advance(by: 90)
            let undone = try await client.web("/driver/undo", form: [("csrf", undo["csrf"] ?? ""), ("tap", undo["tap"] ?? "")], jar: &jar)
            #expect(undone.status == .seeOther)
            let location = try #require(undone.headers[.location])
            let page = try await client.web(location, jar: &jar)
            #expect(page.body.contains("Undone: on board for Ann R. at Sterling Chemistry Lab.") && page.tapForm("boarded") != nil)
            // Board again, then wait past two minutes: the undo is refused in words, nothing changes.
            let boardAgain = try #require(page.tapForm("boarded"))
            #expect(try await client.web("/driver/taps", form: boardAgain, jar: &jar).status == .seeOther)
            let again = try #require(try await client.web("/driver", jar: &jar).forms("/driver/undo").first)
            // The undo window closes two minutes after the tap: its time, as the driver reads it.
            let closes = WebTimeWords(timeZone: w.configuration.timeZone).time(w.f.clock.now.addingTimeInterval(120))
            w.f.clock.advance(by: 121)
            #expect(try await client.web("/driver", jar: &jar).forms("/driver/undo").isEmpty)
            let late = try await client.web("/driver/undo", form: [("csrf", again["csrf"] ?? ""), ("tap", again["tap"] ?? "")], jar: &jar)
            #expect(late.status == .conflict && late.body.contains("A tap can be undone until \(closes) only."), "\(closes)")
            #expect(try await w.count("SELECT count(*) FROM stop_taps WHERE action = 'boarded' AND undone_at IS NULL") == 1)
        }
        await w.f.close()
    }

    @Test func theShiftEndsAfterAConfirmationAndTheVanIsFreeAgain() async throws {
        let w = try await DriverWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            try await Self.startDay(w, client, driver: &jar)
            let confirm = try await client.web("/driver/end", jar: &jar)
            #expect(confirm.status == .ok && confirm.body.contains("End your shift?") && confirm.body.contains("2 stops still to go"))
            let ended = try await client.web("/driver/shift/end", form: [("csrf", confirm.csrf ?? "")], jar: &jar)
            #expect(ended.status == .seeOther && ended.headers[.location] == "/driver?done=ended")
            let start = try await client.web("/driver?done=ended", jar: &jar)
            #expect(start.body.contains("Your shift is ended.") && start.body.contains(#"name="van" type="radio""#))
            // Ending twice (a second tap): the same answer.
            #expect(try await client.web("/driver/shift/end", form: [("csrf", confirm.csrf ?? "")], jar: &jar).status == .seeOther)
            #expect(try await w.count("SELECT count(*) FROM shifts WHERE ended_at IS NULL") == 0)
        }
        await w.f.close()
    }
}
