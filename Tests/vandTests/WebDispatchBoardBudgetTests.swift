import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import vand

/// A busy day's board within the page budget (Tests/browser/suite.py: a first visit's HTML, CSS
/// and scripts under 50 kB decoded and 16 kB sent gzipped): 300 rides on 8 vans booked through
/// ``BookingService`` and approved through ``DispatchService``, three vans on the road since the
/// morning with their stops up to noon tapped, on the real router and a real database.
@Suite("A busy day's board fits the page budget")
struct WebDispatchBoardBudgetTests {
    static let decodedBudget = 50 * 1_024
    static let sentBudget = 16 * 1_024
    static let rides = 300

    static let first = ["Ann", "Bartholomew", "Chiamaka", "Dmitri", "Esperanza", "Fitzgerald", "Guadalupe", "Hiroshi", "Ingrid", "Jamal"]
    static let last = ["Rivera", "Okafor-Lindqvist", "Nakamura", "Abernathy", "Castellanos", "Przybylski", "Oyelaran", "Thorsdottir"]

    /// Five vans more than the demo's three (8 seats and 2 wheelchair positions each), 300 named
    /// riders, and a ride for each every 3 minutes from 7:30 AM between the demo places, booked
    /// and approved; then three vans on the road at noon, their stops before noon tapped.
    static func busyDay(_ w: ConsoleWorld) async throws -> [Int64] {
        let pool = w.f.database.pool
        let places: [(id: Int64, name: String, at: Coordinate)] = try await pool.withConnection { conn in
            for n in 4...8 { try conn.execute("INSERT INTO vans (name, seats, wheelchair_positions) VALUES (\("Van \(n)"), 8, 2)") }
            for i in 0..<rides {
                try conn.execute(
                    """
                    INSERT INTO riders (net_id, name, password_hash) VALUES (\("busy\(i)"), \("\(first[i % first.count]) \(last[i % last.count])"), 'x')
                    """)
            }
            return try conn.query("SELECT id, name, lat, lon FROM places ORDER BY id").map { row in
                (try row.decode(at: 0), try row.decode(at: 1), try Coordinate(latitude: try row.decode(at: 2), longitude: try row.decode(at: 3)))
            }
        }
        let booking = BookingService(pool: pool, timeZone: w.configuration.timeZone)
        let dispatch = DispatchService(pool: pool, timeZone: w.configuration.timeZone)
        for i in 0..<rides {
            let from = places[i % places.count],
                to =
                    places[(i * 5 + 3) % places.count].id == from.id
                    ? places[(i + 1) % places.count] : places[(i * 5 + 3) % places.count]
            let ride = NewRide(
                id: .timeOrdered(at: w.start), netID: try NetID("busy\(i)"),
                pickup: RideEndpoint(coordinate: from.at, placeID: from.id, placeName: from.name),
                dropoff: RideEndpoint(coordinate: to.at, placeID: to.id, placeName: to.name),
                pickupAt: w.at(7, 30).addingTimeInterval(TimeInterval(i * 180)), needsWheelchair: i % 9 == 0)
            guard case .booked(let booked) = try await booking.book(ride, now: w.f.clock.now) else { throw TestFailure("ride \(i) was not booked") }
            _ = try await dispatch.approve(booked.id.uuidString, actor: "office", now: w.f.clock.now)
        }
        // Noon: three vans on the road, every stop planned before noon tapped (arrived a minute
        // late, done a minute after), a fresh position at the last one.
        w.f.clock.set(w.at(12, 0))
        let now = w.f.clock.now
        return try await pool.withConnection { conn in
            let vans = try conn.query("SELECT id FROM vans ORDER BY name").map { try $0.decode(Int64.self, at: 0) }
            for (n, van) in vans.prefix(3).enumerated() {
                try conn.execute("INSERT INTO riders (net_id, name, password_hash, role) VALUES (\("busydrv\(n)"), \("Driver \(n)"), 'x', 'driver')")
                let shift = try conn.query(
                    """
                    INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES (\("busydrv\(n)"), \(van), \(w.at(7, 0))) RETURNING id
                    """
                ).first!.decode(Int64.self, at: 0)
                var stops: [(ride: UUID, kind: String, at: Date, lat: Double, lon: Double)] = []
                for row in try conn.query(
                    """
                    SELECT id, pickup_at, estimated_dropoff_at, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon FROM rides WHERE van_id = \(van)
                    """)
                {
                    let id: UUID = try row.decode(at: 0)
                    stops.append((id, "pickup", try row.decode(at: 1), try row.decode(at: 3), try row.decode(at: 4)))
                    stops.append((id, "dropoff", try row.decode(at: 2), try row.decode(at: 5), try row.decode(at: 6)))
                }
                stops.sort { $0.at < $1.at }
                guard !stops.isEmpty else { continue }
                for stop in stops where stop.at.addingTimeInterval(120) < now {
                    try conn.execute(
                        """
                        INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at, lat, lon) VALUES
                          (\(UUID()), \(shift), \(stop.ride), \(stop.kind), 'arrived', \(stop.at.addingTimeInterval(60)), \(stop.lat), \(stop.lon)),
                          (\(UUID()), \(shift), \(stop.ride), \(stop.kind), \(stop.kind == "pickup" ? "boarded" : "dropped_off"),
                           \(stop.at.addingTimeInterval(120)), \(stop.lat), \(stop.lon))
                        """)
                }
                let last = stops.last { $0.at.addingTimeInterval(120) < now } ?? stops[0]
                try conn.execute(
                    "INSERT INTO van_positions (van_id, at, lat, lon, source) VALUES (\(van), \(now), \(last.lat), \(last.lon), 'tracker')")
            }
            return vans
        }
    }

    /// A page's first visit: its HTML and every stylesheet and script it links, decoded and as
    /// sent gzipped (the router compresses as it does for a browser).
    static func weigh(_ client: some TestClientProtocol, _ path: String, jar: WebJar) async throws -> (html: String, decoded: Int, sent: Int) {
        var jar = jar
        let page = try await client.web(path, jar: &jar)
        #expect(page.status == .ok, "\(path)")
        let assets = page.body.matches(of: #/<(?:link rel="stylesheet" href|script src)="([^"]+)"/#).map { String($0.output.1) }
        #expect(assets.contains { $0.contains("dispatch-board.css") } && assets.contains { $0.contains("dispatch-board.js") }, "\(assets)")
        var decoded = page.body.utf8.count, sent = 0
        for uri in [path] + assets {
            let (plain, gzipped) = try await client.execute(uri: uri, method: .get, headers: [.cookie: jar.header, .acceptEncoding: "gzip"]) {
                response in
                (response.headers[.contentEncoding] == nil, response.body.readableBytes)
            }
            sent += gzipped
            #expect(!plain || gzipped < 1_024, "\(uri) was sent uncompressed")
            if uri != path {
                decoded += try await client.execute(uri: uri, method: .get) { $0.body.readableBytes }
            }
        }
        return (page.body, decoded, sent)
    }

    @Test func aDayOf300RidesOn8VansIsWithinThePageBudgetAndLosesNoStop() async throws {
        let w = try await ConsoleWorld()
        let vans = try await Self.busyDay(w)
        #expect(vans.count == 8)
        let stopsByVan: [Int64: Int] = try await w.f.database.pool.withConnection { conn in
            Dictionary(
                uniqueKeysWithValues: try conn.query(
                    """
                    SELECT van_id, 2 * count(*) FROM rides WHERE status = 'approved' GROUP BY van_id
                    """
                ).map { (try $0.decode(Int64.self, at: 0), try $0.decode(Int.self, at: 1)) })
        }
        #expect(stopsByVan.values.reduce(0, +) == 2 * Self.rides, "every ride booked and approved on a van")
        try await w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("dee1", jar: &jar).headers[.location] == "/dispatch")
            // The fleet's summary: every van with its stops done and its next stop.
            let fleet = try await Self.weigh(client, "/dispatch/board", jar: jar)
            #expect(fleet.html.contains("300 rides on 2026-11-29."))
            let rows = fleet.html.components(separatedBy: #"<tr><th scope="row"><a href="/dispatch/board?day=2026-11-29&amp;van="#).count - 1
            #expect(rows == 8, "one summary row a van")
            #expect(fleet.html.components(separatedBy: "; on the road</td>").count - 1 == 3)
            #expect(fleet.html.contains("ETA "), "the vans on the road show their next stop's ETA")
            #expect(
                fleet.decoded <= Self.decodedBudget && fleet.sent <= Self.sentBudget,
                "the fleet's board is \(fleet.decoded) bytes decoded, \(fleet.sent) sent")
            var largest = (decoded: 0, sent: 0)
            var paged = 0
            for van in vans {
                // Each van's day, every stop of it (tapped, with its ETA, or planned) on its pages,
                // each page within the budget.
                var stops = 0, page = 1
                while true {
                    let weighed = try await Self.weigh(client, "/dispatch/board?day=2026-11-29&van=\(van)&page=\(page)", jar: jar)
                    stops += weighed.html.components(separatedBy: #"<th scope="row">"#).count - 1 - 8
                    #expect(
                        weighed.decoded <= Self.decodedBudget && weighed.sent <= Self.sentBudget,
                        "van \(van)'s board, page \(page), is \(weighed.decoded) bytes decoded, \(weighed.sent) sent")
                    largest = (max(largest.decoded, weighed.decoded), max(largest.sent, weighed.sent))
                    guard weighed.html.contains(#"rel="next">Later stops</a>"#), page < 10 else { break }
                    page += 1
                }
                paged = max(paged, page)
                #expect(stops == stopsByVan[van] ?? 0, "van \(van) shows \(stops) of its \(stopsByVan[van] ?? 0) stops")
            }
            #expect(paged == 2, "the busiest van's day (over \(DayBoard.stopsPerPage) stops) is on two pages")
            print(
                "busy day (300 rides, 8 vans): the fleet's board \(fleet.decoded) B decoded, \(fleet.sent) B sent; "
                    + "a van's board at most \(largest.decoded) B decoded, \(largest.sent) B sent (HTML, CSS and scripts)")
        }
        await w.f.close()
    }

    /// The board works out its vans' ETAs from its own read of the day; every one is the ETA
    /// that ``ETAService`` (the riders', the alerts') gives for the same stop at the same moment.
    @Test func theBoardsETAsAreTheRoadsOwn() async throws {
        let w = try await ConsoleWorld()
        let vans = try await Self.busyDay(w)
        let pool = w.f.database.pool, zone = w.configuration.timeZone, now = w.f.clock.now
        let eta = ETAService(pool: pool, settings: EventSettings(), timeZone: zone)
        let board = try await DayBoard.load(pool: pool, day: LocalDate(containing: now, in: zone), timeZone: zone, now: now, eta: eta)
        var compared = 0
        for van in vans.prefix(3) {
            let road = try #require(try await eta.van(van, now: now))
            let route = try #require(board.vans.first { $0.id == van })
            #expect(route.onRoad)
            let boardETAs = route.stops.compactMap { stop in stop.eta.map { ("\(stop.rideID) \(stop.kind)", $0) } }
            let roadETAs = road.estimates.map { ("\($0.stop.rideID) \($0.stop.kind == .pickup ? StopKind.pickup : .dropoff)", $0.arrival) }
            #expect(boardETAs.count == roadETAs.count && !roadETAs.isEmpty, "van \(van)")
            #expect(Dictionary(uniqueKeysWithValues: boardETAs) == Dictionary(uniqueKeysWithValues: roadETAs), "van \(van)")
            compared += roadETAs.count
        }
        #expect(compared > 100)
        await w.f.close()
    }
}
