import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import VanDomain
import VanServices
import VanPostgres
import VanTestSupport
@testable import vand

/// The dispatcher's queue (`/dispatch`), alerts (`/dispatch/alerts`) and live stream
/// (`/dispatch/stream`) on the real router and a real database (ConsoleWorld).
@Suite("The console's queue, alerts and live stream")
struct WebDispatchQueueTests {
    /// Books SCL → Davenport for ann1 over the API at `time` (local, "2026-11-30T15:00"); its reference.
    static func book(_ w: ConsoleWorld, _ client: some TestClientProtocol, at time: String) async throws -> String {
        let token = try await client.token("ann1", "correct horse battery")
        var body = RideRoutesTests.sclToDavenport
        body["pickup_at"] = time
        let booked = try await client.book(token, body)
        #expect(booked.status == .created, "\(booked.body)")
        let id = try #require(booked.body["id"] as? String)
        return try await w.f.database.pool.withConnection {
            try $0.query("SELECT ref FROM rides WHERE id = \(UUID(uuidString: id)!)").first!.decode(String.self, at: 0)
        }
    }

    static func status(_ w: ConsoleWorld, _ ref: String) async throws -> String {
        try await w.f.database.pool.withConnection { try $0.query("SELECT status FROM rides WHERE ref = \(ref)").first!.decode(String.self, at: 0) }
    }

    /// The part of a queue page about one ride (its `<li>`).
    static func entry(_ page: String, _ ref: String) -> String? {
        guard let start = page.range(of: #"id="ride-\#(ref)""#) else { return nil }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</li>")?.upperBound ?? rest.endIndex)])
    }

    /// Follows a console action's redirect: the page it lands on, with the flash.
    static func follow(_ answer: WebAnswerSeen, _ client: some TestClientProtocol, jar: inout WebJar) async throws -> WebAnswerSeen {
        #expect(answer.status == .seeOther, "answered \(answer.status): \(answer.body.prefix(300))")
        let location = try #require(answer.headers[.location])
        return try await client.web(location, jar: &jar)
    }

    /// Only Van 1 runs, so every ride shares one route.
    static func oneVan(_ w: ConsoleWorld) async throws {
        try await w.f.database.pool.withConnection { try $0.execute("UPDATE vans SET active = (name = 'Van 1')") }
    }

    @Test func theQueueListsPendingRidesOldestBookingFirstWithTheRouteAroundEach() async throws {
        let w = try await ConsoleWorld()
        try await Self.oneVan(w)
        try await w.application().test(.router) { client in
            // Booked first, picked up last: the queue goes by booking.
            let later = try await Self.book(w, client, at: "2026-11-30T16:00")
            w.f.clock.advance(by: 300)
            let earlier = try await Self.book(w, client, at: "2026-11-30T15:00")
            w.f.clock.advance(by: 720)
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let page = try await client.web("/dispatch", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.body.contains("2 rides wait for a decision."))
            let first = try #require(page.body.range(of: #"id="ride-\#(later)""#)),
                second = try #require(page.body.range(of: #"id="ride-\#(earlier)""#))
            #expect(first.lowerBound < second.lowerBound)
            let entry = try #require(Self.entry(page.body, earlier))
            #expect(
                entry.contains("Ann Rivera") && entry.contains("(ann1)")
                    && entry.contains("<bdi>Sterling Chemistry Lab</bdi> → <bdi>Davenport College</bdi>"))
            #expect(entry.contains("Pickup 3:00 PM–") && entry.contains(" tomorrow"), "\(entry)")
            #expect(entry.contains("Walks on, alone") && entry.contains(#"href="tel:2035550111""#))
            #expect(entry.contains("12 min (booked"))
            // Its van's route: its own stops, and the other ride's pickup just after its drop-off.
            #expect(entry.contains("(this ride)"))
            #expect(entry.contains("Ann Rivera (\(later))"), "the next stop on the van's route is not shown: \(entry)")
            #expect(page.body.contains(#"src="/static/dispatch-queue.js"#))
            // The part alone, for the script: no layout.
            let part = try await client.web("/dispatch/queue/part", jar: &jar)
            #expect(part.status == .ok && part.body.contains(#"id="ride-\#(earlier)""#) && !part.body.contains("<nav"))
        }
        await w.f.close()
    }

    /// Issue 33: a right-to-left override in a rider's address reversed the console's own words after
    /// it ("(rear) → Davenport College"). People's text is isolated (`<bdi>`, or U+2068…U+2069 inside
    /// a sentence), so the override ends where her text does; a zero-width space is shown as it is
    /// (invisible, and it cannot reorder anything).
    @Test func peoplesTextIsIsolatedSoAnOverrideCannotReverseTheConsolesWords() async throws {
        let w = try await ConsoleWorld()
        try await Self.oneVan(w)
        // Her own pop (U+2069) first: it would close an isolate the console put around her text.
        let address = "12 Elm St \u{2069}\u{202e}(rear)", note = "Gate \u{202e}B\u{200b} code"
        try await w.application().test(.router) { client in
            let ref = try await Self.book(w, client, at: "2026-11-30T15:00")
            try await w.f.database.pool.withConnection { conn in
                try conn.execute("UPDATE rides SET pickup_place_id = NULL, pickup_address = \(address), note = \(note) WHERE ref = \(ref)")
            }
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let entry = try #require(Self.entry(try await client.web("/dispatch", jar: &jar).body, ref))
            #expect(entry.contains("<bdi>\(address)</bdi> → <bdi>Davenport College</bdi>"), "\(entry)")
            #expect(entry.contains("<bdi>\(note)</bdi>"), "\(entry)")
            // Her stop in the van's route, a sentence the console makes: her text without its run
            // controls, so nothing of it can reorder the sentence (or it stands in a <bdi> of its own).
            #expect(entry.contains(" 12 Elm St (rear)") || entry.contains("<bdi>\(address)</bdi></td>"), "\(entry)")
            let ride = try await client.web("/dispatch/rides/\(ref)", jar: &jar)
            #expect(ride.status == .ok && ride.body.contains("<bdi>\(address)</bdi>"), "\(ride.body)")
            // No run control of hers is left outside a <bdi> (which the browser isolates at the element).
            for page in [entry, ride.body] {
                var rest = Substring(page)
                while let at = rest.rangeOfCharacter(from: CharacterSet(charactersIn: "\u{202e}\u{2069}")) {
                    let before = page[..<at.lowerBound]
                    let opened = before.range(of: "<bdi>", options: .backwards)?.lowerBound ?? before.startIndex
                    let closed = before.range(of: "</bdi>", options: .backwards)?.lowerBound ?? before.startIndex
                    #expect(opened > closed, "a run control outside a <bdi>: …\(before.suffix(80))")
                    rest = rest[at.upperBound...]
                }
            }
        }
        await w.f.close()
    }

    @Test func approveAndRejectWithAReasonAreAuditedAndTheRiderIsTold() async throws {
        let w = try await ConsoleWorld()
        let loop = TriggerLoop(
            pool: w.f.database.pool, settings: EventSettings(), timeZone: w.configuration.timeZone, clock: w.f.clock,
            logger: TestCluster.quietLogger)
        try await w.application().test(.router) { client in
            let approved = try await Self.book(w, client, at: "2026-11-30T15:00")
            let rejected = try await Self.book(w, client, at: "2026-11-30T18:00")
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let csrf = try #require(try await client.web("/dispatch", jar: &jar).csrf)

            let afterApprove = try await Self.follow(
                try await client.web("/dispatch/approve", form: [("csrf", csrf), ("ride", approved)], jar: &jar), client, jar: &jar)
            #expect(afterApprove.body.contains("Approved \(approved) for Ann Rivera."))
            #expect(Self.entry(afterApprove.body, approved) == nil)
            #expect(try await Self.status(w, approved) == "approved")
            // The flash is shown once.
            #expect(!(try await client.web("/dispatch", jar: &jar)).body.contains("Approved \(approved)"))

            // An empty reason: the message by the field, what was typed kept, nothing changed.
            let refused = try await client.web("/dispatch/reject", form: [("csrf", csrf), ("ride", rejected), ("reason", "   ")], jar: &jar)
            #expect(refused.status == .unprocessableContent)
            let field = try #require(Self.entry(refused.body, rejected))
            #expect(field.contains(#"id="reason-\#(rejected)-error""#) && field.contains(#"aria-invalid="true""#) && field.contains(#"value="   ""#))
            #expect(refused.body.contains(#"class="error-summary""#) && refused.body.contains(##"href="#reason-\##(rejected)""##))
            #expect(try await Self.status(w, rejected) == "pending")
            #expect(try await w.auditActors("ride.reject").isEmpty)
            // A reason longer than the rider is given (500 characters) is refused by the field, kept
            // as typed: never cut short without a word.
            let long = String(repeating: "No van that evening. ", count: 24)
            let tooLong = try await client.web("/dispatch/reject", form: [("csrf", csrf), ("ride", rejected), ("reason", long)], jar: &jar)
            #expect(tooLong.status == .unprocessableContent)
            let longField = try #require(Self.entry(tooLong.body, rejected))
            #expect(longField.contains("Shorten the reason to 500 characters (it has \(long.trimmingCharacters(in: .whitespaces).count))"))
            #expect(longField.contains(#"value="\#(long)""#))
            #expect(try await Self.status(w, rejected) == "pending")

            let afterReject = try await Self.follow(
                try await client.web(
                    "/dispatch/reject", form: [("csrf", csrf), ("ride", rejected), ("reason", "No wheelchair van that evening")], jar: &jar),
                client, jar: &jar)
            #expect(afterReject.body.contains("Rejected \(rejected) for Ann Rivera."))
            #expect(try await Self.status(w, rejected) == "rejected")
        }
        #expect(try await w.auditActors("ride.approve") == [ConsoleWorld.dispatcherActor])
        #expect(try await w.auditActors("ride.reject") == [ConsoleWorld.dispatcherActor])
        _ = try await loop.runOnce(now: w.f.clock.now)
        let told = try await Inbox(pool: w.f.database.pool).list("ann1")
        #expect(told.map(\.kind) == ["approved", "rejected"])
        #expect(told.last?.message.hasSuffix("was not approved: No wheelchair van that evening.") == true, "\(told.last?.message ?? "")")
        await w.f.close()
    }

    @Test func approveAllApprovesWhatFitsAndNamesWhatDoesNot() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            let monday = try await Self.book(w, client, at: "2026-11-30T15:00")
            let tuesday = try await Self.book(w, client, at: "2026-12-01T15:00")
            // The service stops running on Tuesdays after the booking: that ride no longer fits.
            try await ServiceCalendarStore(pool: w.f.database.pool, timeZone: w.configuration.timeZone)
                .setHours(try [1, 2, 4, 5, 6, 7].map { try ServiceWindow(weekday: $0, start: "00:00", end: "24:00") }, actor: "office")
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let csrf = try #require(try await client.web("/dispatch", jar: &jar).csrf)
            let page = try await Self.follow(try await client.web("/dispatch/approve-all", form: [("csrf", csrf)], jar: &jar), client, jar: &jar)
            #expect(page.body.contains("Approved 1 ride. 1 could not be approved:"))
            #expect(page.body.contains("\(tuesday) for Ann Rivera: does not fit:"), "\(page.body)")
            #expect(try await Self.status(w, monday) == "approved")
            #expect(try await Self.status(w, tuesday) == "pending")
            #expect(Self.entry(page.body, tuesday) != nil)
        }
        #expect(try await w.auditActors("ride.approve") == [ConsoleWorld.dispatcherActor])
        await w.f.close()
    }

    @Test func anActionOnARideDecidedMeanwhileSaysSoAndChangesNothing() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            let ref = try await Self.book(w, client, at: "2026-11-30T15:00")
            let cancelled = try await Self.book(w, client, at: "2026-11-30T18:00")
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let csrf = try #require(try await client.web("/dispatch", jar: &jar).csrf)
            // Someone else approved it (from the terminal) after this page was shown.
            _ = try await DispatchService(pool: w.f.database.pool, timeZone: w.configuration.timeZone).approve(
                ref, actor: "Bo (bo1)", now: w.f.clock.now)
            let again = try await Self.follow(
                try await client.web("/dispatch/reject", form: [("csrf", csrf), ("ride", ref), ("reason", "full")], jar: &jar), client, jar: &jar)
            #expect(again.status == .ok)
            #expect(again.body.contains("\(ref) for Ann Rivera is already approved; nothing changed."))
            #expect(try await Self.status(w, ref) == "approved")
            // The rider cancelled hers.
            try await w.f.database.pool.withConnection {
                try $0.execute("UPDATE rides SET status = 'cancelled', cancelled_by = 'rider', cancelled_at = now() WHERE ref = \(cancelled)")
            }
            let gone = try await Self.follow(
                try await client.web("/dispatch/approve", form: [("csrf", csrf), ("ride", cancelled)], jar: &jar), client, jar: &jar)
            #expect(gone.body.contains("\(cancelled) for Ann Rivera was cancelled; nothing changed."))
            let unknown = try await Self.follow(
                try await client.web("/dispatch/approve", form: [("csrf", csrf), ("ride", "ZZZ-ZZZ")], jar: &jar), client, jar: &jar)
            #expect(unknown.body.contains("There is no ride “ZZZ-ZZZ”; nothing changed."))
        }
        #expect(try await w.auditActors("ride.approve") == ["Bo (bo1)"])
        #expect(try await w.auditActors("ride.reject").isEmpty)
        await w.f.close()
    }

    @Test func alertsListLateNoShowParkedAndLongPendingRidesEachWithItsAction() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            let late = try await Self.book(w, client, at: "2026-11-29T09:00")
            let noShow = try await Self.book(w, client, at: "2026-11-29T11:00")
            let pending = try await Self.book(w, client, at: "2026-11-30T15:00")
            let pool = w.f.database.pool
            let dispatch = DispatchService(pool: pool, timeZone: w.configuration.timeZone)
            _ = try await dispatch.approve(late, actor: "test", now: w.f.clock.now)
            _ = try await dispatch.approve(noShow, actor: "test", now: w.f.clock.now)
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            var page = try await client.web("/dispatch/alerts", jar: &jar)
            #expect(page.body.contains("Nothing needs you now."))
            #expect(!page.body.contains(#"id="pending-\#(pending)""#))

            try await pool.withConnection { conn in
                try conn.execute(
                    """
                    INSERT INTO ride_alerts (ride_id, kind, raised_at, stop, eta, window_end, van_id)
                    SELECT id, 'late', \(w.f.clock.now), 'pickup', window_end + interval '12 minutes', window_end, van_id FROM rides WHERE ref = \(late)
                    """)
                try conn.execute("UPDATE rides SET status = 'no_show' WHERE ref = \(noShow)")
                try conn.execute(
                    """
                    UPDATE deliveries SET parked_at = \(w.f.clock.now), attempts = 8, last_error = 'HTTP 500 from the receiver'
                    WHERE sink = 'webhook' AND event_id = (SELECT min(id) FROM ride_events)
                    """)
            }
            w.f.clock.advance(by: 11 * 60)  // past VAND_PENDING_ALERT's 10 minutes
            page = try await client.web("/dispatch/alerts", jar: &jar)
            #expect(page.body.contains("4 alerts."))
            let lateItem = try #require(page.body.range(of: #"id="late-\#(late)""#).map { String(page.body[$0.lowerBound...].prefix(800)) })
            #expect(
                lateItem.contains("is 12 min late") && lateItem.contains(#"href="/dispatch/board?day=2026-11-29&amp;van="#)
                    && lateItem.contains(#"#ride-\#(late)""#))
            #expect(lateItem.contains(#"href="tel:2035550111""#))
            #expect(page.body.contains(#"id="no-show-\#(noShow)""#))
            #expect(page.body.contains(#"id="pending-\#(pending)""#) && page.body.contains("waiting 11 min"))
            let event = try await pool.withConnection { try $0.query("SELECT min(id) FROM ride_events").first!.decode(Int64.self, at: 0) }
            #expect(page.body.contains(#"id="parked-\#(event)""#) && page.body.contains("HTTP 500 from the receiver"))

            // Replay the parked delivery, as `vanadmin events replay`.
            let csrf = try #require(page.csrf)
            let replayed = try await Self.follow(
                try await client.web("/dispatch/alerts/replay", form: [("csrf", csrf), ("event", String(event))], jar: &jar), client, jar: &jar)
            #expect(replayed.body.contains("Sending event \(event) to the webhook again."))
            #expect(!replayed.body.contains(#"id="parked-\#(event)""#))
            #expect(try await w.count("SELECT count(*) FROM deliveries WHERE parked_at IS NOT NULL") == 0)
            // The pending one approved from the alerts page returns there.
            let approve = try await client.web(
                "/dispatch/approve", form: [("csrf", csrf), ("ride", pending), ("back", "/dispatch/alerts")], jar: &jar)
            #expect(approve.headers[.location] == "/dispatch/alerts")
            #expect(try await Self.status(w, pending) == "approved")
            let part = try await client.web("/dispatch/alerts/part", jar: &jar)
            #expect(part.status == .ok && !part.body.contains("<nav") && part.body.contains(#"id="late-\#(late)""#))
        }
        #expect(try await w.auditActors("events.replay") == [ConsoleWorld.dispatcherActor])
        await w.f.close()
    }

    @Test func theStreamSendsARideEventAfterABookingAndEndsAtSignOut() async throws {
        let w = try await ConsoleWorld()
        let routes = w.routes()
        let live = try #require(routes.dispatchLive)
        try await w.f.application(routes).test(.live) { client in
            let port = try #require(client.port)
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let cookie = try #require(jar.cookies[WebSession.sessionCookie])
            try await withTimeout(seconds: 120) { while !live.feed.isListening { try await Task.sleep(for: .milliseconds(10)) } }
            let stream = try await EventStreamReader.open(port: port, path: "/dispatch/stream", cookie: cookie)
            try await withTimeout(seconds: 120) { while live.feed.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(10)) } }
            let ref = try await Self.book(w, client, at: "2026-11-30T15:00")
            let id = try await w.f.database.pool.withConnection {
                try $0.query("SELECT id FROM rides WHERE ref = \(ref)").first!.decode(UUID.self, at: 0)
            }
            let ride = try await stream.waitFor { $0.event == "ride" && $0.data.contains(id.uuidString.lowercased()) }
            let data = try #require(try JSONSerialization.jsonObject(with: Data(ride.data.utf8)) as? [String: Any])
            #expect(data["kind"] as? String == "created")
            #expect(data["day"] as? String == "2026-11-30")
            #expect(data["van"] is Int)
            // A sign-out ends it.
            let page = try await client.web("/dispatch", jar: &jar)
            #expect(try await client.web("/sign-out", form: [("csrf", page.csrf ?? "")], jar: &jar).status == .seeOther)
            let closed = try await stream.waitFor { $0.event == "closed" }
            #expect(closed.data.contains("session_ended"))
            stream.close()
        }
        await w.f.close()
    }

    /// Opens `count` console streams with `cookie`, one at a time, each counted open before the next.
    static func openStreams(_ count: Int, port: Int, cookie: String, live: WebDispatchLive) async throws -> [EventStreamReader] {
        var streams: [EventStreamReader] = []
        for open in 1...count {
            streams.append(try await EventStreamReader.open(port: port, path: "/dispatch/stream", cookie: cookie))
            try await withTimeout(seconds: 120) { while live.streams.openCount < open { try await Task.sleep(for: .milliseconds(10)) } }
        }
        return streams
    }

    /// A dispatcher holds at most four streams: the fifth closes her oldest.
    @Test func aDispatchersFifthStreamClosesHerOldest() async throws {
        let w = try await ConsoleWorld()
        let routes = w.routes()
        let live = try #require(routes.dispatchLive)
        try await w.f.application(routes).test(.live) { client in
            let port = try #require(client.port)
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let cookie = try #require(jar.cookies[WebSession.sessionCookie])
            let streams = try await Self.openStreams(WebDispatchLive.perDispatcher, port: port, cookie: cookie, live: live)
            let fifth = try await EventStreamReader.open(port: port, path: "/dispatch/stream", cookie: cookie)
            let closed = try await streams[0].waitFor { $0.event == "closed" }
            #expect(closed.data.contains("too_many_streams"))
            #expect(live.streams.openCount == WebDispatchLive.perDispatcher)
            for stream in streams + [fifth] { stream.close() }
        }
        await w.f.close()
    }

    /// The process holds at most ``ConnectionSettings/consoleStreams`` (2 here): the next gets a
    /// 503 with Retry-After and opens nothing.
    @Test func pastTheProcesssCapAStreamIsRefusedAndOpensNothing() async throws {
        let w = try await ConsoleWorld()
        var configuration = w.configuration
        configuration.connections.consoleStreams = 2
        let routes = buildRoutes(configuration: configuration, database: w.f.database, clock: w.f.clock)
        let live = try #require(routes.dispatchLive)
        #expect(live.maxStreams == 2)
        try await w.f.application(routes).test(.live) { client in
            let port = try #require(client.port)
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let cookie = try #require(jar.cookies[WebSession.sessionCookie])
            let streams = try await Self.openStreams(2, port: port, cookie: cookie, live: live)
            let refused = try await client.web("/dispatch/stream", jar: &jar)
            #expect(refused.status == .serviceUnavailable && refused.headers[.retryAfter] == "60", "\(refused.status)")
            #expect(refused.body.contains("Too many live streams are open"))
            #expect(live.streams.openCount == 2)
            for stream in streams { stream.close() }
        }
        await w.f.close()
    }

    /// What no notification announces, the feed finds by the clock, once each.
    /// A ride picked up within 30 minutes comes first and is an alert at once; the feed announces
    /// it when it is booked that soon, and a later one when its pickup comes within 30 minutes.
    @Test func aRidePickedUpSoonComesFirstAndIsAnAlertAtOnce() async throws {
        let w = try await ConsoleWorld()
        let t0 = w.f.clock.now
        let feed = DispatchFeed(pool: w.f.database.pool, timeZone: w.configuration.timeZone, clock: w.f.clock, pendingAfter: 600)
        try await w.application().test(.router) { client in
            let monday = try await Self.book(w, client, at: "2026-11-30T10:00")
            w.f.clock.advance(by: 60)
            let soon = try await Self.book(w, client, at: "2026-11-29T07:20")
            let later = try await Self.book(w, client, at: "2026-11-29T08:30")
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let page = try await client.web("/dispatch", jar: &jar).body
            let order = try [soon, monday, later].map { ref in try #require(page.range(of: #"id="ride-\#(ref)""#)).lowerBound }
            #expect(order == order.sorted(), "the queue is not soon first, then oldest booking first")
            #expect(Self.entry(page, soon)?.contains("Pickup soon") == true)
            #expect(Self.entry(page, monday)?.contains("Pickup soon") == false)
            let alerts = try await client.web("/dispatch/alerts", jar: &jar).body
            #expect(
                alerts.contains(#"id="pending-\#(soon)""#) && !alerts.contains(#"id="pending-\#(monday)""#)
                    && !alerts.contains(#"id="pending-\#(later)""#))
        }
        #expect(try await feed.timedAlerts(since: t0 + 30, now: t0 + 90) == [.alert("pending")])
        #expect(try await feed.timedAlerts(since: t0 + 90, now: t0 + 300).isEmpty)
        #expect(try await feed.timedAlerts(since: t0 + 500, now: t0 + 700) == [.alert("pending")])
        #expect(try await feed.timedAlerts(since: t0 + 3_500, now: t0 + 3_700) == [.alert("pending")])
        await w.f.close()
    }

    /// An approved ride due within 30 minutes on a van with no driver on shift is an alert, with
    /// its move link; a shift started on the van ends it. The feed announces one coming due.
    @Test func aRideDueSoonOnAVanWithNoDriverIsAnAlertUntilAShiftStarts() async throws {
        let w = try await ConsoleWorld()
        let t0 = w.f.clock.now
        let soon = try await WebDispatchBoardTests.approved(w, "ann1", w.at(7, 20))
        let feed = DispatchFeed(pool: w.f.database.pool, timeZone: w.configuration.timeZone, clock: w.f.clock, pendingAfter: 600)
        let van = try #require(soon.vanID)
        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let alerts = try await client.web("/dispatch/alerts", jar: &jar).body
            let card = try #require(alerts.range(of: #"id="unstaffed-\#(soon.ref.rawValue)""#).map { String(alerts[$0.lowerBound...].prefix(700)) })
            #expect(card.contains("which has no driver on shift") && card.contains(#"href="/dispatch/rides/\#(soon.ref.rawValue)""#), "\(card)")
            _ = try await Road(pool: w.f.database.pool, clock: w.f.clock, settings: RoadSettings(), timeZone: w.configuration.timeZone)
                .shifts.start(driver: try NetID("dana1"), vanID: van)
            let after = try await client.web("/dispatch/alerts", jar: &jar).body
            #expect(
                !after.contains(#"id="unstaffed-\#(soon.ref.rawValue)""#)
                    && after.contains("Every ride due in the next 30 minutes has a driver on its van."))
        }
        try await w.f.database.pool.withConnection { try $0.execute("UPDATE shifts SET ended_at = \(t0), ended_by = 'test'") }
        // Due at 07:20: it comes within 30 minutes at 06:50, before t0; nothing crosses after.
        #expect(try await feed.timedAlerts(since: t0, now: t0 + 60).isEmpty)
        #expect(try await feed.timedAlerts(since: t0 - 900, now: t0 - 500) == [.alert("unstaffed")])
        await w.f.close()
    }

    @Test func theFeedAnnouncesARideCrossingThePendingLimitAndADeliveryParkedOnce() async throws {
        let w = try await ConsoleWorld()
        let t0 = w.f.clock.now
        let feed = DispatchFeed(pool: w.f.database.pool, timeZone: w.configuration.timeZone, clock: w.f.clock, pendingAfter: 600)
        try await w.application().test(.router) { client in
            _ = try await Self.book(w, client, at: "2026-11-30T15:00")
        }
        #expect(try await feed.timedAlerts(since: t0, now: t0 + 300).isEmpty)
        #expect(try await feed.timedAlerts(since: t0 + 300, now: t0 + 660) == [.alert("pending")])
        #expect(try await feed.timedAlerts(since: t0 + 660, now: t0 + 900).isEmpty)
        try await w.f.database.pool.withConnection { conn in
            try conn.execute("UPDATE deliveries SET parked_at = \(t0 + 700), attempts = 8 WHERE sink = 'webhook'")
        }
        #expect(try await feed.timedAlerts(since: t0 + 660, now: t0 + 900) == [.alert("parked")])
        #expect(try await feed.timedAlerts(since: t0 + 900, now: t0 + 1200).isEmpty)
        await w.f.close()
    }

    @Test func theStreamRefusesRidersAndDrivers() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            for netID in ["ann1", "dana1"] {
                var jar = WebJar()
                _ = try await client.webSignIn(netID, jar: &jar)
                let answer = try await client.web("/dispatch/stream", jar: &jar)
                #expect(answer.status == .forbidden)
                #expect(answer.headers[.contentType] != "text/event-stream")
            }
        }
        await w.f.close()
    }

    @Test func aFlashRoundTripsThroughItsCookieAndForgedOnesAreIgnored() {
        let flash = WebDispatchFlash(
            warning: true, title: "Approved 1 ride. 1 could not be approved:", lines: ["K7M-3QX for Ann Rivera: does not fit"])
        let session = SessionToken.generate().rawValue, other = SessionToken.generate().rawValue
        let cookie = flash.cookie(secure: false, session: session)
        #expect(
            cookie.httpOnly && cookie.path == "/dispatch"
                && cookie.value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        func request(_ value: String, session: String) -> Request {
            Request(
                head: .init(
                    method: .get, scheme: "http", authority: "x", path: "/dispatch",
                    headerFields: [.cookie: "\(WebSession.sessionCookie)=\(session); \(WebDispatchFlash.cookie)=\(value)"]),
                body: .init(buffer: ByteBuffer()))
        }
        #expect(WebDispatchFlash.read(request(cookie.value, session: session)) == flash)
        #expect(WebDispatchFlash.read(request(cookie.value, session: other)) == nil, "another session's flash")
        #expect(WebDispatchFlash.read(request("bm9wZQ", session: session)) == nil)  // "nope": unsigned
        // The signed text with one letter changed.
        let payload = String(cookie.value.prefix { $0 != "." }), mac = cookie.value.drop { $0 != "." }
        let changed = (payload.first == "b" ? "c" : "b") + payload.dropFirst()
        #expect(WebDispatchFlash.read(request(changed + mac, session: session)) == nil)
    }
}
