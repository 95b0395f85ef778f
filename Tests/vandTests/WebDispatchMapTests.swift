import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanPostgres
import VanTestSupport
@testable import vand

@Suite("The projection of the dispatcher's map")
struct MapProjectionTests {
    static func coordinate(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

    @Test func theBoxsCornersFallOnThePaddedDrawingAndOneSpanFillsIt() {
        // A box wider than tall: it fills the width between the paddings and is centred in height.
        let sw = Self.coordinate(41.30, -72.94), ne = Self.coordinate(41.31, -72.90)
        let p = MapProjection(fitting: [sw, ne, Self.coordinate(41.305, -72.92)], width: 800, heights: 200...1000, padding: 40)
        let nw = p.point(Self.coordinate(41.31, -72.94)), se = p.point(Self.coordinate(41.30, -72.90))
        #expect(abs(nw.x - 40) < 1e-9 && abs(se.x - 760) < 1e-9)
        #expect(abs(nw.y - 40) < 1e-9 && abs(se.y - (p.height - 40)) < 1e-9)
        #expect(p.point(sw).x == nw.x && p.point(sw).y == se.y && p.point(ne).x == se.x && p.point(ne).y == nw.y)
        // The height follows the box's aspect: 0.01° of latitude against 0.04° of longitude at cos(41.305°).
        let expected = 720 * 0.01 / (0.04 * cos(41.305 * .pi / 180)) + 80
        #expect(abs(p.height - expected) < 1e-6)
    }

    @Test func aMetreEastIsDrawnAsLongAsAMetreNorth() {
        let a = Self.coordinate(41.31, -72.93)
        let p = MapProjection(fitting: [a, Self.coordinate(41.32, -72.90)])
        let north = p.point(Self.coordinate(41.311, -72.93)), east = p.point(Self.coordinate(41.31, -72.93 + 0.001 / cos(41.315 * .pi / 180)))
        let origin = p.point(a)
        #expect(abs((origin.y - north.y) - (east.x - origin.x)) < 1e-6)
        #expect(north.y < origin.y && east.x > origin.x && north.x == origin.x && east.y == origin.y)
    }

    @Test func aTallBoxIsCentredAcrossAndClampedInHeight() {
        let p = MapProjection(fitting: [Self.coordinate(41.0, -72.0), Self.coordinate(42.0, -72.001)], width: 800, heights: 320...640, padding: 48)
        #expect(p.height == 640)
        let top = p.point(Self.coordinate(42.0, -72.001)), bottom = p.point(Self.coordinate(41.0, -72.0))
        #expect(abs(top.y - 48) < 1e-9 && abs(bottom.y - 592) < 1e-9)
        #expect(abs((top.x + bottom.x) / 2 - 400) < 1e-9)
    }

    @Test func onePlaceIsDrawnInTheMiddle() {
        let only = Self.coordinate(41.31, -72.93)
        let p = MapProjection(fitting: [only], width: 800, heights: 320...640, padding: 48)
        let point = p.point(only)
        #expect(abs(point.x - 400) < 1e-9 && abs(point.y - p.height / 2) < 1e-9 && p.unitsPerDegree.isFinite)
    }

    @Test func numbersForAttributesHaveOneDecimal() {
        #expect(MapProjection.number(12) == "12" && MapProjection.number(12.345) == "12.3" && MapProjection.number(-0.04) == "0")
    }
}

@Suite("The dispatcher's map on the real router and a real database")
struct WebDispatchMapTests {
    /// Where the SVG draws the place labelled `short` (its dot's centre).
    static func place(_ short: String, in body: String) throws -> (x: String, y: String) {
        let pattern = try Regex(
            #"<circle class="place" cx="([-\d.]+)" cy="([-\d.]+)" r="5"/>(?:<line class="leader"[^>]*/>)?<text class="place-label"[^>]*>"#
                + NSRegularExpression.escapedPattern(for: short) + "</text>")
        let match = try #require(body.firstMatch(of: pattern), "no place \(short)")
        return (String(match.output[1].substring!), String(match.output[2].substring!))
    }

    /// The van marker's group for van `id`: its class and centre.
    static func van(_ id: Int64, in body: String) -> (classes: String, x: String, y: String, label: String)? {
        guard
            let match = body.firstMatch(
                of: try! Regex(
                    #"<g class="van ([^"]+)" data-van="\#(id)"><circle cx="([-\d.]+)" cy="([-\d.]+)" r="11"/>(?:<line class="leader"[^>]*/>)?<text class="van-label"[^>]*>([^<]*)</text>"#
                ))
        else { return nil }
        return (
            String(match.output[1].substring!), String(match.output[2].substring!), String(match.output[3].substring!),
            String(match.output[4].substring!)
        )
    }

    /// The table's row for `van`.
    static func row(_ van: String, in body: String) throws -> String {
        let match = try #require(
            body.firstMatch(of: try Regex(#"<tr><th scope="row"><span class="swatch [^"]*" aria-hidden="true"></span>\#(van)</th>.*?</tr>"#)),
            "no row for \(van)")
        return String(match.output[0].substring!)
    }

    /// The road services on the world's database and clock, as vand builds them.
    static func road(_ w: ConsoleWorld) -> Road {
        Road(pool: w.f.database.pool, clock: w.f.clock, settings: w.configuration.road, timeZone: w.configuration.timeZone)
    }

    static func vanID(_ w: ConsoleWorld, _ name: String) async throws -> Int64 {
        try await w.f.database.pool.withConnection { try $0.query("SELECT id FROM vans WHERE name = \(name)").first!.decode(Int64.self, at: 0) }
    }

    /// ann1's ride from SAS to Bass at 08:00 today, approved on Van 1; its reference and planned pickup.
    static func ride(_ w: ConsoleWorld, _ client: some TestClientProtocol) async throws -> (ref: String, pickupAt: Date, windowEnd: Date) {
        let token = try await client.token("ann1", "correct horse battery")
        let booked = try await client.book(token, ["pickup": "SAS", "dropoff": "Bass", "pickup_at": "2026-11-29T08:00"])
        let id = try #require(booked.body["id"] as? String, "booking answered \(booked.status): \(booked.body)")
        let ride = try await DispatchService(pool: w.f.database.pool, timeZone: w.configuration.timeZone)
            .approve(id, van: "Van 1", actor: "test", now: w.f.clock.now)
        return (ride.ref.rawValue, ride.pickupAt, ride.promise.window.end)
    }

    @Test func theMapDrawsEveryPlaceAndAVanOnShiftAtItsPositionThroughItsNextStops() async throws {
        let w = try await ConsoleWorld()
        let road = Self.road(w)
        let van1 = try await Self.vanID(w, "Van 1"), van2 = try await Self.vanID(w, "Van 2")
        try await w.application().test(.router) { client in
            let ride = try await Self.ride(w, client)
            _ = try await road.shifts.start(driver: try NetID("dana1"), vanID: van1)
            _ = try await road.positions.record(
                try PositionFix(lat: 41.31112, lon: -72.92880, accuracyMeters: 8), vanID: van1, from: .driver(try NetID("dana1")))
            // Van 2 has an old position but no shift: not on the road.
            try await w.f.database.pool.withConnection { conn in
                try conn.execute(
                    "INSERT INTO van_positions (van_id, at, lat, lon, source) VALUES (\(van2), \(w.f.clock.now), 41.30409, -72.93628, 'tracker')")
            }

            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let page = try await client.web("/dispatch/map", jar: &jar)
            #expect(page.status == .ok)
            let body = page.body
            #expect(body.contains(#"role="img" aria-labelledby="map-title map-desc""#))
            for place in DemoData.places { _ = try Self.place(place.1.first ?? place.0, in: body) }

            // Van 1 is drawn where the position is: on SML's dot, fresh, named beside its marker.
            let marker = try #require(Self.van(van1, in: body), "Van 1 is not drawn")
            let smlDot = try Self.place("SML", in: body)
            #expect(marker.x == smlDot.x && marker.y == smlDot.y)
            #expect(!marker.classes.contains("stale") && marker.label == "Van 1")
            // Its line starts at the van and runs through the pickup (SAS) then the drop-off (Bass).
            let sas = try Self.place("SAS", in: body), bass = try Self.place("Bass", in: body)
            #expect(body.contains(#"<path d="M\#(marker.x) \#(marker.y) L\#(sas.x) \#(sas.y) L\#(bass.x) \#(bass.y)"/>"#))
            #expect(body.contains("Van 1: near SML, under 1 min old; next stop pickup at SAS."))
            // Van 2, without a shift, is not drawn on the road, and the table says so.
            #expect(Self.van(van2, in: body) == nil)
            #expect(try Self.row("Van 2", in: body).contains("<td>Not on shift</td><td>Not on the road</td>"))
            #expect(body.contains("Van 2 is not on shift."))

            // The table carries the same facts: driver, position and its age, next stops with times, lateness.
            let row = try Self.row("Van 1", in: body)
            let words = WebTimeWords(timeZone: w.configuration.timeZone)
            #expect(row.contains("<td>Dana Driver (dana1)</td>"))
            #expect(row.contains("<td>near SML, under 1 min old</td>"))
            #expect(row.contains("<li>\(words.time(ride.pickupAt)) pickup Ann R. at SAS, expected "), "\(row)")
            #expect(row.contains("drop-off Ann R. at Bass") && row.contains(#"<span class="ref">\#(ride.ref)</span>"#))
            #expect(row.contains("<td>On time</td>"))
        }
        await w.f.close()
    }

    @Test func aStalePositionIsDrawnFadedWithItsAgeAndALateVanSaysByHowMuch() async throws {
        let w = try await ConsoleWorld()
        let road = Self.road(w)
        let van1 = try await Self.vanID(w, "Van 1")
        try await w.application().test(.router) { client in
            let ride = try await Self.ride(w, client)
            _ = try await road.shifts.start(driver: try NetID("dana1"), vanID: van1)
            _ = try await road.positions.record(
                try PositionFix(lat: 41.31112, lon: -72.92880, accuracyMeters: 8), vanID: van1, from: .driver(try NetID("dana1")))
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            // Inside the stale limit the position is known; past it, drawn faded with its age.
            w.f.clock.advance(by: w.configuration.road.positionStale)
            #expect(Self.van(van1, in: try await client.web("/dispatch/map", jar: &jar).body)?.classes.contains("stale") == false)
            w.f.clock.set(w.start.addingTimeInterval(4 * 60 + 30))
            let body = try await client.web("/dispatch/map", jar: &jar).body
            let marker = try #require(Self.van(van1, in: body))
            #expect(marker.classes.contains("stale") && marker.label == "Van 1 · position 4 min old")
            let row = try Self.row("Van 1", in: body)
            #expect(row.contains(#"<td class="stale-text">unknown: position 4 min old (near SML)</td>"#))
            // No fresh fix, so no ETA. Inside the window the van is not late yet; a van not there
            // past the window's end is at least as late as the clock (Lateness: whole minutes).
            #expect(!row.contains("expected"))
            w.f.clock.set(ride.windowEnd.addingTimeInterval(-10))
            let inside = try Self.row("Van 1", in: try await client.web("/dispatch/map/part", jar: &jar).body)
            #expect(inside.contains("<td>On time</td>"), "\(inside)")
            w.f.clock.set(ride.windowEnd.addingTimeInterval(12 * 60 + 10))
            let late = try Self.row("Van 1", in: try await client.web("/dispatch/map/part", jar: &jar).body)
            #expect(late.contains(#"<td class="late">12 min late</td>"#), "\(late)")
            #expect(late.contains("pickup Ann R. at SAS, 12 min late"), "\(late)")
        }
        await w.f.close()
    }

    @Test func thePageHasNoInlineStyleOrScriptAndThePartHasNoLayout() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let page = try await client.web("/dispatch/map", jar: &jar)
            #expect(page.status == .ok)
            #expect(!page.body.contains("style="))
            #expect(page.body.firstMatch(of: #/<script(?![^>]*\bsrc=)/#) == nil)
            #expect(page.body.contains("/static/dispatch-map.js?v=") && page.body.contains("/static/dispatch-map.css?v="))
            #expect(page.body.contains(#"<div id="map-live" data-part="/dispatch/map/part">"#))
            // No van on shift: nothing drawn on the road, every van listed as not on shift.
            #expect(!page.body.contains("data-van="))
            for van in ["Van 1", "Van 2", "Van 3"] { #expect(try Self.row(van, in: page.body).contains("Not on shift")) }

            let part = try await client.web("/dispatch/map/part", jar: &jar)
            #expect(part.status == .ok && part.body.hasPrefix(#"<p id="map-asof""#))
            #expect(!part.body.contains("<html") && part.body.contains(#"<table id="map-table""#) && part.body.contains(#"<svg class="fleet-map""#))
        }
        await w.f.close()
    }
}

@Suite("The map's labels are placed clear of one another and of the marks")
struct WebDispatchMapLabelTests {
    typealias Box = MapLabelPlacement.Box

    /// The demo campus drawn as the map draws it, with a van at each of `vanAt` (demo places by
    /// short name; the first one's position stale, so its label is long): the placed labels, the
    /// marks (dots and markers) and the drawing's bounds.
    static func demoCampus(vansAt: [String]) throws -> (labels: [(String, MapLabelPlacement.Placed)], marks: [Box], bounds: Box) {
        let places = try DemoData.places.map { ($0.1.first ?? $0.0, try Coordinate(latitude: $0.2, longitude: $0.3)) }
        let vans = try vansAt.enumerated().map { index, short in
            (index == 0 ? "Van \(index + 1) · position 4 min old" : "Van \(index + 1)", try #require(places.first { $0.0 == short }).1)
        }
        let projection = MapProjection(fitting: places.map(\.1) + vans.map(\.1))
        let dots = places.map { ($0.0, projection.point($0.1)) }, markers = vans.map { ($0.0, projection.point($0.1)) }
        let placed = WebDispatchMapView.placeLabels(
            width: projection.width, height: projection.height,
            vans: markers.map { ($0.0, $0.1.x, $0.1.y) }, places: dots.map { ($0.0, $0.1.x, $0.1.y) }, stops: [])
        #expect(placed.count == markers.count + dots.count)
        let marks =
            dots.map { Box(circle: $0.1.x, $0.1.y, radius: WebDispatchMapView.placeRadius) }
            + markers.map { Box(circle: $0.1.x, $0.1.y, radius: WebDispatchMapView.vanRadius) }
        return (Array(zip(markers.map(\.0) + dots.map(\.0), placed)), marks, Box(minX: 0, minY: 0, maxX: projection.width, maxY: projection.height))
    }

    static func overlaps(_ labels: [(String, MapLabelPlacement.Placed)]) -> [String] {
        var found: [String] = []
        for i in labels.indices {
            for j in labels.indices where j > i && labels[i].1.box.overlap(labels[j].1.box) > 0 {
                found.append("\(labels[i].0) / \(labels[j].0)")
            }
        }
        return found
    }

    @Test(arguments: [[], ["Bass", "SML", "Commons"], ["SAS", "SSS", "Bass"]])
    func onTheDemoCampusNoLabelCoversAnotherOrAMarkOrLeavesTheDrawing(vansAt: [String]) throws {
        let (labels, marks, bounds) = try Self.demoCampus(vansAt: vansAt)
        #expect(Self.overlaps(labels) == [])
        for (text, placed) in labels {
            #expect(bounds.contains(placed.box), "\(text) leaves the drawing")
            #expect(marks.allSatisfy { placed.box.overlap($0) == 0 }, "\(text) covers a dot or a marker")
        }
        // A van standing at Bass does not hide Bass's label (the first map drew it under the marker).
        if let van = vansAt.firstIndex(of: "Bass"), let bass = labels.first(where: { $0.0 == "Bass" }) {
            #expect(bass.1.box.overlap(marks[DemoData.places.count + van]) == 0)
        }
    }

    @Test func aVanAtEveryPlaceStillLeavesNoTwoLabelsOverlapping() throws {
        let (labels, _, bounds) = try Self.demoCampus(vansAt: DemoData.places.map { $0.1.first ?? $0.0 })
        #expect(Self.overlaps(labels) == [])
        #expect(labels.allSatisfy { bounds.contains($0.1.box) })
    }

    @Test func aLabelGoesRightOfItsPointThenLeftThenFurtherOutWithALeader() {
        let placement = MapLabelPlacement(bounds: Box(minX: 0, minY: 0, maxX: 800, maxY: 600))
        let label = MapLabelPlacement.Label(text: "SML", x: 400, y: 300, radius: 5, fontSize: 15)
        // Free all round: to the right, starting the radius and the gap away, no leader.
        let free = placement.place([label], avoiding: [])[0]
        #expect(free.anchor == "start" && free.x == 408 && free.leader == nil)
        #expect(free.box.minX < 408 && free.box.maxX > 408 + MapLabelPlacement.width("SML", fontSize: 15))
        // A mark on its right: to the left, ending there.
        let blockedRight = placement.place([label], avoiding: [Box(minX: 405, minY: 280, maxX: 470, maxY: 320)])[0]
        #expect(blockedRight.anchor == "end" && blockedRight.x == 392)
        // Hemmed in close by: further out, with a line back to the point's mark.
        let ring = Box(minX: 350, minY: 270, maxX: 450, maxY: 330)
        let hemmed = placement.place([label], avoiding: [ring])[0]
        #expect(hemmed.leader != nil && hemmed.box.overlap(ring) == 0)
        // Near the east edge, the right would leave the drawing: to the left.
        let east = placement.place([.init(text: "Union Station", x: 790, y: 300, radius: 5, fontSize: 15)], avoiding: [])[0]
        #expect(east.anchor == "end" && Box(minX: 0, minY: 0, maxX: 800, maxY: 600).contains(east.box))
        // Two labels at one point: the second takes another side.
        let two = placement.place([label, label], avoiding: [])
        #expect(two[0].box.overlap(two[1].box) == 0)
    }

    @Test func widerTextIsEstimatedWider() {
        #expect(MapLabelPlacement.width("Union Station", fontSize: 15) > MapLabelPlacement.width("SML", fontSize: 15))
        #expect(MapLabelPlacement.width("WWW", fontSize: 15) > MapLabelPlacement.width("iii", fontSize: 15))
        #expect(MapLabelPlacement.width("Van 1", fontSize: 17, bold: true) > MapLabelPlacement.width("Van 1", fontSize: 17))
    }
}
