import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanPostgres
import VanTestSupport
@testable import vand

/// A day bigger than any van can drive (600 rides on Van 1, 200 on Van 2 with 35 of them
/// pending) on the real router and a real database: every staff page shows what a person reads
/// at once and pages or counts the rest, and the queue's route around a ride is the one a full
/// read of the van's day gives. `vand-bench board --day-rides 10000` times the same pages.
@Suite("The staff pages on a big day")
struct StaffPagesOnABigDayTests {
    /// Rides written straight to the table (the route check off, as `vand-bench board` copies a
    /// day): Van 1 a pickup every minute from 7:30, Van 2 every 3 minutes from 7:31, every 5th of
    /// Van 2's rides from the 10th on pending, each ride 20 minutes long.
    static func bigDay(_ w: ConsoleWorld) async throws -> (van1: Int64, van2: Int64) {
        let start = w.at(7, 30)
        return try await w.f.database.pool.withTransaction { conn in
            let vans = try conn.query("SELECT id FROM vans WHERE name IN ('Van 1', 'Van 2') ORDER BY name").map { try $0.decode(Int64.self, at: 0) }
            try conn.execute("SET LOCAL session_replication_role = replica")
            for (van, count, spacing, offset) in [(vans[0], 600, 60, 0), (vans[1], 200, 180, 60)] {
                try conn.execute(
                    """
                    INSERT INTO rides (id, net_id, kind, pickup_place_id, dropoff_place_id, requested_at, pickup_at, estimated_dropoff_at,
                                       status, van_id, promise, window_start, window_end, max_ride_seconds)
                    SELECT gen_random_uuid(), 'ann1', 'scheduled', p.id, d.id, \(w.start) + n * interval '1 second',
                           \(start) + (n * \(spacing) + \(offset)) * interval '1 second', \(start) + (n * \(spacing) + \(offset) + 1200) * interval '1 second',
                           CASE WHEN \(van) = \(vans[1]) AND n >= 10 AND n % 5 = 0 THEN 'pending' ELSE 'approved' END, \(van), 'pickup',
                           \(start) + (n * \(spacing) + \(offset)) * interval '1 second', \(start) + (n * \(spacing) + \(offset) + 900) * interval '1 second', 3600
                    FROM generate_series(0, \(count - 1)) AS n, places p, places d
                    WHERE p.name = 'Sterling Chemistry Lab' AND d.name = 'Davenport College'
                    """)
            }
            return (vans[0], vans[1])
        }
    }

    /// The van's first `count` stops in route order tapped done on `shift` (boarded, dropped off).
    static func done(_ count: Int, van: Int64, shift: Int64, at: Date, _ conn: PGConnection) throws {
        try conn.execute(
            """
            INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
            SELECT gen_random_uuid(), \(shift), id, stop, CASE stop WHEN 'pickup' THEN 'boarded' ELSE 'dropped_off' END, \(at)
            FROM (SELECT id, 'pickup' AS stop, pickup_at AS at FROM rides WHERE van_id = \(van)
                  UNION ALL SELECT id, 'dropoff', estimated_dropoff_at FROM rides WHERE van_id = \(van)
                  ORDER BY at, stop DESC LIMIT \(count)) AS first
            """)
    }

    static func count(_ html: String, _ needle: String) -> Int { html.components(separatedBy: needle).count - 1 }

    @Test func theQueueIsPagedAndEachRideShowsItsTrueNeighbours() async throws {
        let w = try await ConsoleWorld()
        let (_, van2) = try await Self.bigDay(w)
        let pendingCount = try await w.count("SELECT count(*) FROM rides WHERE status = 'pending'")
        #expect(pendingCount == 38)
        // The route around each queued ride, against a full read of its van's day.
        let pool = w.f.database.pool
        let stops: [(ref: String, action: String, at: Date, id: UUID)] = try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT ref, id, pickup_at, estimated_dropoff_at FROM rides WHERE van_id = \(van2) AND status IN ('pending', 'approved')
                """
            ).flatMap { row -> [(ref: String, action: String, at: Date, id: UUID)] in
                let ref: String = try row.decode(at: 0), id: UUID = try row.decode(at: 1)
                return [(ref, "pickup", try row.decode(at: 2), id), (ref, "dropoff", try row.decode(at: 3), id)]
            }
        }.sorted { a, b in
            a.at != b.at ? a.at < b.at : a.action != b.action ? a.action == "dropoff" : a.id.uuidString < b.id.uuidString
        }
        let queue = PendingQueue(pool: pool, timeZone: w.configuration.timeZone)
        var seen = Set<String>()
        for page in 1...4 {
            let entries = try await queue.entries(now: w.f.clock.now, page: page)
            #expect(entries.count == (page < 4 ? 10 : 8), "page \(page)")
            for entry in entries {
                #expect(seen.insert(entry.listing.ride.ref.rawValue).inserted, "a ride on two pages")
                let own = stops.indices.filter { stops[$0].ref == entry.listing.ride.ref.rawValue }
                let expected = Set(own.flatMap { [$0 - 1, $0, $0 + 1] }.filter(stops.indices.contains)).sorted().map {
                    "\(stops[$0].ref) \(stops[$0].action)"
                }
                #expect(entry.route.map { "\($0.ref.rawValue) \($0.action.rawValue)" } == expected, "\(entry.listing.ride.ref.rawValue)")
            }
        }
        let beyond = try await queue.entries(now: w.f.clock.now, page: 5)
        #expect(seen.count == 38 && beyond.isEmpty)

        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let first = try await client.web("/dispatch", jar: &jar)
            #expect(first.status == .ok && Self.count(first.body, #"class="card queue-ride""#) == 10)
            #expect(first.body.contains("38 rides wait for a decision.") && first.body.contains("Rides 1–10 of 38 are shown"))
            #expect(first.body.contains(#"<a href="/dispatch?page=2" rel="next">Next 10</a>"#) && !first.body.contains(#"rel="prev""#))
            #expect(first.body.contains(#"data-part="/dispatch/queue/part""#))
            #expect(first.body.utf8.count < 50 * 1_024, "the queue's first page is \(first.body.utf8.count) bytes")
            let last = try await client.web("/dispatch?page=4", jar: &jar)
            #expect(Self.count(last.body, #"class="card queue-ride""#) == 8 && last.body.contains("Rides 31–38 of 38"))
            #expect(last.body.contains(#"<a href="/dispatch?page=3" rel="prev">Previous 10</a>"#) && !last.body.contains(#"rel="next""#))
            #expect(last.body.contains(#"data-part="/dispatch/queue/part?page=4""#))
            let part = try await client.web("/dispatch/queue/part?page=4", jar: &jar)
            #expect(part.status == .ok && Self.count(part.body, #"class="card queue-ride""#) == 8 && !part.body.contains("<html"))
            let past = try await client.web("/dispatch?page=9", jar: &jar)
            #expect(
                past.status == .ok && past.body.contains("No rides on this page") && past.body.contains(#"<a href="/dispatch">The first page</a>"#))
            // A page that is no number is the first.
            let odd = try await client.web("/dispatch?page=x%3Cb%3E", jar: &jar)
            #expect(odd.status == .ok && odd.body.contains("Rides 1–10 of 38"))
        }
        await w.f.close()
    }

    @Test func theDriverSeesTheNextStopsAndCountsTheRest() async throws {
        let w = try await ConsoleWorld()
        let (van1, _) = try await Self.bigDay(w)
        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("dana1", jar: &jar)
            let start = try await client.web("/driver", jar: &jar)
            _ = try await client.web("/driver/shift", form: [("csrf", start.csrf ?? ""), ("van", String(van1))], jar: &jar)
            // The first 30 stops in route order done (boarded or dropped off).
            try await w.f.database.pool.withConnection { conn in
                let shift = try conn.query("SELECT id FROM shifts WHERE ended_at IS NULL").first!.decode(Int64.self, at: 0)
                try Self.done(30, van: van1, shift: shift, at: w.f.clock.now, conn)
            }
            for path in ["/driver", "/driver/run"] {
                let run = try await client.web(path, jar: &jar)
                #expect(run.status == .ok, "\(path)")
                let later = run.body.components(separatedBy: #"<ol class="later">"#).last?.components(separatedBy: "</ol>").first ?? ""
                #expect(Self.count(later, #"<li class="card">"#) == WebDriverView.laterShown, "\(path)")
                #expect(run.body.contains("Later stops (1169)") && run.body.contains("1157 more later today"), "\(path)")
                let done = run.body.components(separatedBy: #"<ol class="done-list">"#).last?.components(separatedBy: "</ol>").first ?? ""
                #expect(Self.count(done, "<li>") == WebDriverView.doneShown && run.body.contains("Done stops (30)"), "\(path)")
                #expect(run.body.contains("<summary>Show the last 10 done stops</summary>"), "\(path)")
                #expect(run.body.utf8.count < 30 * 1_024, "\(path) is \(run.body.utf8.count) bytes")
            }
        }
        await w.f.close()
    }

    @Test func aVansDayOnTheBoardIsPagedFromWhereTheVanIs() async throws {
        let w = try await ConsoleWorld()
        let (van1, _) = try await Self.bigDay(w)
        let size = DayBoard.stopsPerPage
        // Van 1's first 250 stops done: the board opens on the page of its 251st.
        let refs: [String] = try await w.f.database.pool.withConnection { conn in
            try conn.execute("INSERT INTO riders (net_id, name, password_hash, role) VALUES ('drv2', 'Dru', 'x', 'driver')")
            let shift = try conn.query("INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES ('drv2', \(van1), \(w.start)) RETURNING id")
                .first!.decode(Int64.self, at: 0)
            try Self.done(250, van: van1, shift: shift, at: w.f.clock.now, conn)
            return try conn.query("SELECT ref FROM rides WHERE van_id = \(van1) ORDER BY pickup_at").map { try $0.decode(String.self, at: 0) }
        }
        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let base = "/dispatch/board?day=2026-11-29&van=\(van1)"
            let now = try await client.web(base, jar: &jar)
            #expect(now.status == .ok && now.body.contains("Stops 201–300 of 1200, page 3 of 12."))
            let fleetRows = Self.count(now.body, #"<th scope="row"><a href="/dispatch/board?"#)
            #expect(fleetRows == 3 && Self.count(now.body, #"<th scope="row">"#) - fleetRows == size, "one page of stops after the fleet's rows")
            #expect(now.body.contains(#"data-page="3""#))
            #expect(
                now.body.contains(#"href="/dispatch/board?day=2026-11-29&amp;van=\#(van1)&amp;page=2#van-\#(van1)" rel="prev">Earlier stops</a>"#))
            #expect(now.body.contains(#"href="/dispatch/board?day=2026-11-29&amp;van=\#(van1)&amp;page=4#van-\#(van1)" rel="next">Later stops</a>"#))
            #expect(now.body.utf8.count < 50 * 1_024, "a van's page is \(now.body.utf8.count) bytes")
            let last = try await client.web(base + "&page=99", jar: &jar)
            #expect(last.body.contains("Stops 1101–1200 of 1200, page 12 of 12.") && !last.body.contains(">Later stops</a>"))
            // A ride's link lands on the page with its row; the part keeps the page asked for.
            let ride = try await client.web(base + "&ride=\(refs[450])", jar: &jar)
            #expect(ride.body.contains(#"id="ride-\#(refs[450])""#) && ride.body.contains("page 9 of 12."))
            let part = try await client.web("/dispatch/board/part?day=2026-11-29&van=\(van1)&page=5", jar: &jar)
            #expect(part.status == .ok && part.body.contains("Stops 401–500 of 1200") && !part.body.contains("<html"))
        }
        await w.f.close()
    }
}
