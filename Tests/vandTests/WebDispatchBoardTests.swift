import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanPostgres
import VanTestSupport
@testable import vand

/// The day board, find by reference and the ride's page with its move, on the real router and
/// a real database (ConsoleWorld: Sunday 2026-11-29 07:00 New York, dee1 signed in).
@Suite("The dispatcher's day board, find by reference, and moving a ride")
struct WebDispatchBoardTests {
    static let scl = try! Coordinate(latitude: 41.31633, longitude: -72.92241)
    static let davenport = try! Coordinate(latitude: 41.30917, longitude: -72.93139)

    /// Books SCL → Davenport for `rider` at `time` through the one booking path and approves it
    /// as a dispatcher would; the ride as stored.
    static func approved(_ w: ConsoleWorld, _ rider: String, _ time: Date, wheelchair: Bool = false) async throws -> Ride {
        let booking = BookingService(pool: w.f.database.pool, timeZone: w.configuration.timeZone)
        let (from, to): (Int64, Int64) = try await w.f.database.pool.withConnection { conn in
            (
                try conn.query("SELECT id FROM places WHERE name = 'Sterling Chemistry Lab'").first!.decode(at: 0),
                try conn.query("SELECT id FROM places WHERE name = 'Davenport College'").first!.decode(at: 0)
            )
        }
        let new = NewRide(
            id: .timeOrdered(at: w.start), netID: try NetID(rider),
            pickup: RideEndpoint(coordinate: scl, placeID: from, placeName: "Sterling Chemistry Lab"),
            dropoff: RideEndpoint(coordinate: davenport, placeID: to, placeName: "Davenport College"), pickupAt: time, needsWheelchair: wheelchair)
        guard case .booked(let ride) = try await booking.book(new, now: w.f.clock.now) else {
            throw TestFailure("could not book \(rider) at \(time)")
        }
        return try await DispatchService(pool: w.f.database.pool, timeZone: w.configuration.timeZone)
            .approve(ride.id.uuidString, actor: "office", now: w.f.clock.now)
    }

    /// A second whitelisted rider, bob2 ("Bob Okafor").
    static func bob(_ w: ConsoleWorld) async throws {
        try await w.f.activeRider("bob2")
        _ = try await w.f.whitelist.add(WhitelistPatch(netID: try NetID("bob2")), actor: "office")
        try await w.f.database.pool.withConnection { try $0.execute("UPDATE riders SET name = 'Bob Okafor' WHERE net_id = 'bob2'") }
    }

    /// The table rows of the board's section for `van`, each row's cells as text (tags stripped).
    static func rows(_ body: String, van: String) throws -> [[String]] {
        let start = try #require(body.range(of: "<h2 id=\"van-"), "no van sections")
        let sections = body[start.lowerBound...].components(separatedBy: "<section class=\"board-van\"")
        let section = try #require(sections.first { $0.contains(">\(van)</h2>") }, "no section for \(van)")
        guard let tbody = section.range(of: "<tbody>"), let end = section.range(of: "</tbody>") else { return [] }
        return section[tbody.upperBound..<end.lowerBound].components(separatedBy: "</tr>").compactMap { row in
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

    @Test func theBoardShowsEachVansStopsInRouteOrderWithPlannedTimesAndLoad() async throws {
        let w = try await ConsoleWorld()
        try await Self.bob(w)
        let annLate = try await Self.approved(w, "ann1", w.at(11, 0))
        let ann = try await Self.approved(w, "ann1", w.at(9, 0))
        let bob = try await Self.approved(w, "bob2", w.at(9, 2), wheelchair: true)
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            // The fleet: a row a van with a link to its stops; no van's stops until one is chosen.
            let fleet = try await client.web("/dispatch/board", jar: &jar)
            #expect(fleet.status == .ok)
            #expect(fleet.body.contains("Sunday, November 29, 2026"))
            #expect(fleet.body.contains(#"<table class="dispatch fleet">"#) && !fleet.body.contains(#"<table class="dispatch board">"#))
            #expect(fleet.body.contains("Choose a van in the table to see its day stop by stop."))
            let vans = Dictionary([ann, bob, annLate].map { ($0.vanName!, $0.vanID!) }) { a, _ in a }
            var seen: [String] = []
            for (van, id) in vans.sorted(by: { $0.key < $1.key }) {
                #expect(fleet.body.contains(#"<a href="/dispatch/board?day=2026-11-29&amp;van=\#(id)#van-\#(id)">\#(van)</a>"#))
                let page = try await client.web("/dispatch/board?day=2026-11-29&van=\(id)", jar: &jar)
                #expect(page.status == .ok)
                #expect(page.body.contains(#"<table class="dispatch board">"#) && page.body.contains(#"<th scope="col">Planned</th>"#))
                #expect(page.body.contains(#"class="board-scroll" role="region""#))
                #expect(page.body.contains(#"href="/dispatch/board?day=2026-11-29&amp;van=\#(id)#van-\#(id)" aria-current="true""#))
                #expect(page.body.contains(#"data-van="\#(id)""#), "the live redraw keeps the van")
                #expect(page.body.contains(#"href="/dispatch/board?day=2026-11-30&amp;van=\#(id)" rel="next""#), "the next day keeps the van")
                let table = page.body.components(separatedBy: "stops in route order</caption>").last ?? ""
                for ride in [ann, bob, annLate] {
                    #expect(page.body.contains(#"id="ride-\#(ride.ref.rawValue)""#) == (ride.vanID == id))
                    // One link a ride in the van's table, though it has two stops.
                    #expect(table.components(separatedBy: #"href="/dispatch/rides/\#(ride.ref.rawValue)""#).count - 1 == (ride.vanID == id ? 1 : 0))
                }
                // Every van's stops in route order: by planned time, each ride's pickup before its drop-off,
                // the load aboard counted stop by stop.
                let rows = try Self.rows(page.body, van: van)
                let rides = [ann, bob, annLate].filter { $0.vanName == van }
                #expect(rows.count == rides.count * 2, "\(van): \(rows)")
                var seats = 0, chairs = 0
                var times: [Date] = []
                for row in rows {
                    let ride = try #require(rides.first { row[4].contains($0.ref.rawValue) }, "\(row)")
                    let pickup = row[2].hasPrefix("Pickup")
                    let stored = try await w.f.database.pool.withConnection { conn in
                        try conn.query("SELECT pickup_at, estimated_dropoff_at FROM rides WHERE id = \(ride.id)").first!
                    }
                    let planned: Date = pickup ? try stored.decode(at: 0) : try stored.decode(at: 1)
                    times.append(planned)
                    #expect(row[0] == ServiceTime(timeZone: w.configuration.timeZone).text(planned, .clockTime), "\(row)")
                    seats += (pickup ? 1 : -1) * ride.seatsNeeded
                    chairs += (pickup ? 1 : -1) * ride.wheelchairPositionsNeeded
                    let seatWords = "\(seats) seat\(seats == 1 ? "" : "s")"
                    #expect(row[6] == (chairs == 0 ? seatWords : "\(seatWords), \(chairs) wheelchair"), "\(row)")
                    #expect(row[1] == "", "no actual time before a tap")
                    seen.append("\(ride.ref.rawValue) \(pickup ? "up" : "down")")
                }
                #expect(times == times.sorted(), "\(van) is not in route order")
                if van == ann.vanName { #expect(page.body.contains("No driver on shift; no position.")) }
            }
            #expect(seen.count == 6)
            // Ann's own rider row names her, and the 9:00 pickup's window is her promise.
            let page = try await client.web("/dispatch/board?van=\(ann.vanID!)", jar: &jar)
            let annRow = try #require(
                try Self.rows(page.body, van: ann.vanName!).first { $0[4].contains(ann.ref.rawValue) && $0[2].hasPrefix("Pickup") })
            let clock = ServiceTime(timeZone: w.configuration.timeZone)
            #expect(annRow[4].hasPrefix("Ann Rivera"))
            #expect(annRow[5] == "\(clock.text(ann.promise.window.start, .clockTime))–\(clock.text(ann.promise.window.end, .clockTime))")
            #expect(annRow[3] == "Sterling Chemistry Lab")
            // Nothing absent is shown as present: no empty anchors, no driver, no phone, no actual time.
            #expect(!page.body.contains(#"id="""#) && !fleet.body.contains(#"id="""#))
            let bobPage = try await client.web("/dispatch/rides/\(bob.ref.rawValue)", jar: &jar)
            #expect(bobPage.body.contains("<bdi>Bob Okafor</bdi> (bob2), no phone on file"))
            #expect(bobPage.body.contains("pickup: not yet; drop-off: not yet"))
            #expect(bobPage.body.contains("Wheelchair"))
        }
        await w.f.close()
    }

    @Test func aTapShowsTheActualTimeAndTheLatenessAndTheVanOnTheRoadItsETAs() async throws {
        let w = try await ConsoleWorld()
        let ride = try await Self.approved(w, "ann1", w.at(9, 0))
        let shift = try await w.f.database.pool.withConnection { conn in
            try conn.query(
                """
                INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES ('dana1', \(ride.vanID!), \(w.at(8, 0))) RETURNING id
                """
            ).first!.decode(Int64.self, at: 0)
        }
        // The van arrives 7 minutes after the window closed.
        let arrived = ride.promise.window.end.addingTimeInterval(7 * 60 + 20)
        w.f.clock.set(arrived.addingTimeInterval(30))
        try await w.f.database.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at, lat, lon)
                VALUES (\(UUID()), \(shift), \(ride.id), 'pickup', 'arrived', \(arrived), \(Self.scl.latitude), \(Self.scl.longitude))
                """)
        }
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/board?van=\(ride.vanID!)", jar: &jar)
            let rows = try Self.rows(page.body, van: ride.vanName!)
            let clock = ServiceTime(timeZone: w.configuration.timeZone)
            #expect(rows.count == 2)
            #expect(rows[0][1] == "Arrived \(clock.text(arrived, .clockTime))")
            #expect(rows[0][7] == "7 min late")
            #expect(page.body.contains(#"class="late""#))
            // The drop-off is ahead: the van is on the road (its tap is the fix), so it has an ETA.
            #expect(rows[1][1] == "")
            #expect(rows[1][7].hasPrefix("ETA "), "\(rows[1])")
            #expect(page.body.contains("Driven by Dana Driver (dana1)"))
            #expect(page.body.contains("on the road"))
            // The fleet's row of the van: no stop done yet (the van is at the pickup), that pickup
            // its next stop, 7 minutes late, and counted late.
            let fleet = try await client.web("/dispatch/board", jar: &jar)
            let row = try #require(fleet.body.components(separatedBy: "<tr").first { $0.contains(">\(ride.vanName!)</a>") })
            #expect(row.contains("<td>Dana Driver (dana1)</td>") && row.contains("; on the road</td>"), "\(row)")
            #expect(row.contains("<td>0 of 2</td>"), "\(row)")
            #expect(
                row.contains(
                    #"\#(clock.text(ride.pickupAt, .clockTime)) pickup at <bdi>Sterling Chemistry Lab</bdi>, <bdi>Ann Rivera</bdi> <a href="/dispatch/rides/\#(ride.ref.rawValue)">"#
                ), "\(row)")
            #expect(row.contains(#"<td class="late">7 min late</td><td>1</td>"#), "\(row)")
            let ridePage = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            #expect(ridePage.body.contains("pickup: arrived \(clock.text(arrived, .clockTime)); drop-off: not yet"))
        }
        await w.f.close()
    }

    @Test func aRideIsFoundByItsReferenceAsSpoken() async throws {
        let w = try await ConsoleWorld()
        let ride = try await Self.approved(w, "ann1", w.at(9, 0))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            // Lower case, a space for the dash.
            let spoken = ride.ref.rawValue.lowercased().replacingOccurrences(of: "-", with: " ")
            let found = try await client.web("/dispatch/find?ref=" + spoken.replacingOccurrences(of: " ", with: "+") + "&day=2026-11-29", jar: &jar)
            #expect(found.status == .seeOther)
            #expect(found.headers[.location] == "/dispatch/rides/\(ride.ref.rawValue)")
            // Without the dash at all.
            let joined = try await client.web(
                "/dispatch/find?ref=" + ride.ref.rawValue.lowercased().replacingOccurrences(of: "-", with: ""), jar: &jar)
            #expect(joined.headers[.location] == "/dispatch/rides/\(ride.ref.rawValue)")

            let page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.body.contains("<bdi>Ann Rivera</bdi> (ann1)") && page.body.contains(#"href="tel:2035550111""#))
            #expect(page.body.contains("Approved") && page.body.contains(ride.vanName!))
            #expect(page.body.contains("ride approve"), "the history shows the approval")
            #expect(page.body.contains(#"action="/dispatch/rides/\#(ride.ref.rawValue)/move""#))
        }
        await w.f.close()
    }

    @Test func aMalformedOrUnknownReferenceIsAnsweredNextToTheFieldWithTheInputKept() async throws {
        let w = try await ConsoleWorld()
        let ride = try await Self.approved(w, "ann1", w.at(9, 0))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let malformed = try await client.web("/dispatch/find?ref=K7M-3Q&day=2026-11-29", jar: &jar)
            #expect(malformed.status == .unprocessableContent)
            #expect(
                malformed.body.contains(
                    #"<p class="error" id="ref-error"><span class="vh">Error: </span>That is not a ride reference: a ride reference has 6 letters and digits"#
                ))
            #expect(malformed.body.contains(#"id="ref" name="ref" type="text" value="K7M-3Q""#))
            #expect(malformed.body.contains(#"aria-invalid="true""#) && malformed.body.contains(##"href="#ref""##))
            #expect(malformed.body.contains(#"<a href="/dispatch/rides/\#(ride.ref.rawValue)">"#), "the board stays under the form")

            let unknownRef = ride.ref.rawValue == "ZZZ-ZZZ" ? "YYY-YYY" : "ZZZ-ZZZ"
            let unknown = try await client.web(
                "/dispatch/find?ref=zzz+zzz".replacingOccurrences(
                    of: "zzz+zzz", with: unknownRef.lowercased().replacingOccurrences(of: "-", with: "+")), jar: &jar)
            #expect(unknown.status == .notFound)
            #expect(unknown.body.contains("No ride has the reference \(unknownRef). Check it with the rider and try again"))
            #expect(unknown.body.contains(#"value="\#(unknownRef.lowercased().replacingOccurrences(of: "-", with: " "))""#))

            let unknownPage = try await client.web("/dispatch/rides/\(unknownRef)", jar: &jar)
            #expect(unknownPage.status == .notFound)
        }
        await w.f.close()
    }

    @Test func aMoveThatFitsIsAuditedWithTheDispatchersNameAndTheRiderIsTold() async throws {
        let w = try await ConsoleWorld()
        let ride = try await Self.approved(w, "ann1", w.at(9, 0))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            let moved = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/move", form: [("csrf", page.csrf ?? ""), ("at", "1:30 PM"), ("van", "")], jar: &jar)
            #expect(moved.status == .seeOther)
            #expect(moved.headers[.location] == "/dispatch/rides/\(ride.ref.rawValue)?done=moved")
            let after = try await client.web(moved.headers[.location]!, jar: &jar)
            #expect(after.body.contains("The ride is moved; the rider is told the new time."))
        }
        let promised: Date = try await w.f.database.pool.withConnection { conn in
            try conn.query("SELECT window_start FROM rides WHERE id = \(ride.id)").first!.decode(at: 0)
        }
        #expect(promised == w.at(13, 30))
        #expect(try await w.auditActors("ride.move") == [ConsoleWorld.dispatcherActor])
        // The rider's notification comes from the ride's `moved` event (RiderMessage).
        #expect(try await w.count("SELECT count(*) FROM ride_events WHERE ride_id = \(ride.id) AND kind = 'moved'") == 1)
        await w.f.close()
    }

    /// A van named in a move keeps the ride there: the page says so and by whom, and its button
    /// (CSRF-checked, audited) lets the planner move it again.
    @Test func aVanChosenInTheConsoleIsKeptUntilTheDispatcherLetsItGo() async throws {
        let w = try await ConsoleWorld()
        let ride = try await Self.approved(w, "ann1", w.at(9, 0))
        let otherVan: String = try await w.f.database.pool.withConnection { conn in
            try conn.query("SELECT name FROM vans WHERE active AND id <> \(ride.vanID!) ORDER BY name LIMIT 1").first!.decode(at: 0)
        }
        let pool = w.f.database.pool, rideID = ride.id
        @Sendable func pinnedBy() async throws -> String? {
            try await pool.withConnection { try $0.query("SELECT van_pinned_by FROM rides WHERE id = \(rideID)").first!.decode(String?.self, at: 0) }
        }
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            var page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            #expect(!page.body.contains("kept there by") && !page.body.contains("/unpin"))
            let moved = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/move", form: [("csrf", page.csrf ?? ""), ("at", ""), ("van", otherVan)], jar: &jar)
            #expect(moved.status == .seeOther, "\(moved.body.prefix(2000))")
            page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            #expect(page.body.contains("\(otherVan), kept there by <bdi>\(ConsoleWorld.dispatcherActor)</bdi>"), "\(page.body.prefix(3000))")
            #expect(try await pinnedBy() == ConsoleWorld.dispatcherActor)
            let forged = try await client.web("/dispatch/rides/\(ride.ref.rawValue)/unpin", form: [("csrf", "nope")], jar: &jar)
            #expect(forged.status == .forbidden)
            #expect(try await pinnedBy() == ConsoleWorld.dispatcherActor, "a form without its token changes nothing")
            let unpinned = try await client.web("/dispatch/rides/\(ride.ref.rawValue)/unpin", form: [("csrf", page.csrf ?? "")], jar: &jar)
            #expect(unpinned.headers[.location] == "/dispatch/rides/\(ride.ref.rawValue)?done=unpinned")
            let after = try await client.web(unpinned.headers[.location]!, jar: &jar)
            #expect(after.body.contains("The planner may now move the ride to another van.") && !after.body.contains("kept there by"))
        }
        #expect(try await pinnedBy() == nil)
        #expect(try await w.auditActors("ride.unpin") == [ConsoleWorld.dispatcherActor])
        await w.f.close()
    }

    @Test func aMoveThatDoesNotFitIsRefusedWithTheEnginesSentenceAndChangesNothing() async throws {
        let w = try await ConsoleWorld()
        let ride = try await Self.approved(w, "ann1", w.at(9, 0))
        try await ServiceCalendarStore(pool: w.f.database.pool, timeZone: w.configuration.timeZone)
            .addClosure(try LocalDate("2026-12-01"), reason: "Snow", actor: "office")
        let before = try await w.count("SELECT count(*) FROM audit_log")
        let events = try await w.count("SELECT count(*) FROM ride_events")
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            // Before now (07:00): the time is in the past, said as such (not "the van is occupied").
            let past = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/move", form: [("csrf", page.csrf ?? ""), ("at", "06:00"), ("van", "")], jar: &jar)
            #expect(past.status == .unprocessableContent)
            #expect(
                past.body.contains(
                    #"<p class="error" id="at-error"><span class="vh">Error: </span>The new time is in the past; choose a time from now on"#))
            #expect(past.body.contains(#"id="at" name="at" type="text" value="06:00""#))
            // A day the service is closed: the engine's sentence.
            let refused = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/move", form: [("csrf", page.csrf ?? ""), ("at", "2026-12-01 10:00"), ("van", "")], jar: &jar)
            #expect(refused.status == .conflict)
            #expect(
                refused.body.contains(#"<p class="error" id="at-error"><span class="vh">Error: </span>It does not fit: "#),
                "\(refused.body.prefix(3000))")
            #expect(refused.body.contains(#"id="at" name="at" type="text" value="2026-12-01 10:00""#))
            #expect(refused.body.contains("<title>Error: Ride"))
            // A time that is no time: next to the field too.
            let garbled = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/move", form: [("csrf", page.csrf ?? ""), ("at", "half past"), ("van", "")], jar: &jar)
            #expect(garbled.status == .unprocessableContent)
            #expect(garbled.body.contains(#"id="at-error""#) && garbled.body.contains(#"value="half past""#))
        }
        let stored: (Date, Date) = try await w.f.database.pool.withConnection { conn in
            let row = try conn.query("SELECT pickup_at, updated_at FROM rides WHERE id = \(ride.id)").first!
            return (try row.decode(at: 0), try row.decode(at: 1))
        }
        #expect(stored.0 == ride.pickupAt && stored.1 == ride.updatedAt)
        #expect(try await w.count("SELECT count(*) FROM audit_log") == before)
        #expect(try await w.count("SELECT count(*) FROM ride_events") == events)
        await w.f.close()
    }

    @Test func aMoveOfARideWhoseRiderIsOnBoardIsRefusedNextToTheVanAndChangesNothing() async throws {
        let w = try await ConsoleWorld()
        let ride = try await Self.approved(w, "ann1", w.at(9, 0))
        let other: String = try await w.f.database.pool.withConnection { conn in
            try conn.query("SELECT name FROM vans WHERE id <> \(ride.vanID!) AND active ORDER BY id LIMIT 1").first!.decode(at: 0)
        }
        let boarded = w.at(9, 7)
        w.f.clock.set(boarded.addingTimeInterval(60))
        try await w.f.database.pool.withConnection { conn in
            let shift = try conn.query(
                """
                INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES ('dana1', \(ride.vanID!), \(w.at(8, 0))) RETURNING id
                """
            ).first!.decode(Int64.self, at: 0)
            for (action, at) in [("arrived", w.at(9, 5)), ("boarded", boarded)] {
                try conn.execute(
                    """
                    INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at) VALUES (\(UUID()), \(shift), \(ride.id), 'pickup', \(action), \(at))
                    """)
            }
        }
        let audited = try await w.count("SELECT count(*) FROM audit_log")
        let events = try await w.count("SELECT count(*) FROM ride_events")
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            let refused = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/move", form: [("csrf", page.csrf ?? ""), ("at", ""), ("van", other)], jar: &jar)
            #expect(refused.status == .conflict)
            #expect(
                refused.body.contains(
                    #"<p class="error" id="van-error"><span class="vh">Error: </span>This ride cannot be moved: the rider is on board \#(ride.vanName!) (boarded 9:07 AM): a ride under way stays on its van"#
                ),
                "\(refused.body)")
            #expect(refused.body.contains("<title>Error: Ride"))
        }
        let stored: (Int64, Date, Date) = try await w.f.database.pool.withConnection { conn in
            let row = try conn.query("SELECT van_id, pickup_at, updated_at FROM rides WHERE id = \(ride.id)").first!
            return (try row.decode(at: 0), try row.decode(at: 1), try row.decode(at: 2))
        }
        #expect(stored.0 == ride.vanID && stored.1 == ride.pickupAt && stored.2 == ride.updatedAt)
        #expect(try await w.count("SELECT count(*) FROM audit_log") == audited)
        #expect(try await w.count("SELECT count(*) FROM ride_events") == events)
        await w.f.close()
    }

    @Test func theBoardShowsTheDaysDenialsAndWarnsWhenStandingRidesCrowdAnHour() async throws {
        let w = try await ConsoleWorld()
        try await Self.bob(w)
        let standing = try await Self.approved(w, "ann1", w.at(9, 0))
        let rejected = try await Self.approved(w, "bob2", w.at(9, 5))
        try await w.f.database.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET series_id = gen_random_uuid() WHERE id = \(standing.id)")
            try conn.execute("UPDATE rides SET status = 'rejected' WHERE id = \(rejected.id)")
            // Refused for lack of a van 20 minutes ago, twice, and never booked.
            for minutes in [20.0, 18] {
                try conn.execute(
                    """
                    INSERT INTO booking_refusals (net_id, requested_pickup_at, reason, refused_at, trip_key, trip_words)
                    VALUES ('bob2', \(w.at(14, 0)), 'occupied', \(w.f.clock.now.addingTimeInterval(-minutes * 60)), 'place:1>place:2',
                            'Sterling Chemistry Lab → <b>Davenport</b>')
                    """)
            }
        }
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let board = try await client.web("/dispatch/board", jar: &jar)
            #expect(board.status == .ok)
            #expect(board.body.contains("3 requests, 0 moved to another time, 2 denials (67 %)."), "\(board.body)")
            #expect(board.body.contains(#"<caption id="denials-caption">Denials on this day</caption>"#))
            #expect(board.body.contains("rejected by a dispatcher") && board.body.contains(#"<a href="/dispatch/rides/\#(rejected.ref.rawValue)">"#))
            #expect(board.body.contains("no van was free") && board.body.contains("2 times"))
            #expect(board.body.contains("Sterling Chemistry Lab → &lt;b&gt;Davenport&lt;/b&gt;"), "the trip's words are escaped")
            #expect(
                board.body.contains("From 9:00 AM, standing rides fill 100 % of the hour&#39;s rides while 1 request was denied"), "\(board.body)")
            let part = try await client.web("/dispatch/board/part", jar: &jar)
            #expect(part.body.contains("Denials on this day"), "the live redraw keeps the section")
            let tomorrow = try await client.web("/dispatch/board?day=2026-11-30", jar: &jar)
            #expect(tomorrow.body.contains("No requests for this day yet.") && !tomorrow.body.contains("denials-caption"))
        }
        await w.f.close()
    }

    @Test func anotherDayIsChosenByTheQuery() async throws {
        let w = try await ConsoleWorld()
        let today = try await Self.approved(w, "ann1", w.at(9, 0))
        let monday = try await Self.approved(w, "ann1", w.at(9, 0).addingTimeInterval(86_400))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let board = try await client.web("/dispatch/board", jar: &jar)
            #expect(board.body.contains("rides/\(today.ref.rawValue)") && !board.body.contains("rides/\(monday.ref.rawValue)"))
            #expect(board.body.contains(#"href="/dispatch/board?day=2026-11-30" rel="next""#))
            #expect(board.body.contains(#"href="/dispatch/board?day=2026-11-28" rel="prev""#))
            let next = try await client.web("/dispatch/board?day=2026-11-30", jar: &jar)
            #expect(next.status == .ok)
            #expect(next.body.contains("Monday, November 30, 2026"))
            #expect(next.body.contains("rides/\(monday.ref.rawValue)") && !next.body.contains("rides/\(today.ref.rawValue)"))
            let part = try await client.web("/dispatch/board/part?day=2026-11-30", jar: &jar)
            #expect(part.status == .ok && part.body.contains("rides/\(monday.ref.rawValue)") && !part.body.contains("<html"))
            let vanPart = try await client.web("/dispatch/board/part?day=2026-11-30&van=\(monday.vanID!)", jar: &jar)
            #expect(vanPart.status == .ok && vanPart.body.contains(#"id="ride-\#(monday.ref.rawValue)""#) && !vanPart.body.contains("<html"))
            // A van that is no van: the fleet to choose from, 404; the part alone, 404.
            for query in ["van=99999", "van=first"] {
                let missing = try await client.web("/dispatch/board?day=2026-11-30&\(query)", jar: &jar)
                #expect(missing.status == .notFound && missing.body.contains("That van has no route on this day."), "\(query)")
                #expect(missing.body.contains(#"<table class="dispatch fleet">"#))
                #expect(try await client.web("/dispatch/board/part?\(query)", jar: &jar).status == .notFound, "\(query)")
            }
            // The ride's page leads back to its row on its van's stops.
            let ridePage = try await client.web("/dispatch/rides/\(monday.ref.rawValue)", jar: &jar)
            #expect(
                ridePage.body.contains(
                    #"href="/dispatch/board?day=2026-11-30&amp;van=\#(monday.vanID!)&amp;ride=\#(monday.ref.rawValue)#ride-\#(monday.ref.rawValue)""#)
            )
            let bad = try await client.web("/dispatch/board?day=2026-13-01", jar: &jar)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.body.contains(#"id="day-error""#) && bad.body.contains(#"value="2026-13-01""#))
        }
        await w.f.close()
    }
}
