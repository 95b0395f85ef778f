import Foundation
import VanDomain
import VanServices

/// The map's template values from a ``FleetMap``: the SVG's shapes (places, each van on shift
/// at its latest position, a line through its next stops) projected by ``MapProjection``, its
/// title and description, and the table of the same facts. Vans get a colour class
/// (`van-c0`…) by their order; every van is also named in text, so colour is never the only cue.
struct WebDispatchMapView {
    let words: WebTimeWords
    let map: FleetMap

    /// How many colours `dispatch-map.css` defines for vans.
    static let colours = 6
    /// A van is "near" a place within this many metres.
    static let nearMeters = 400.0

    /// The values of `dispatch-map-part.mustache`.
    func values() -> [String: Any] {
        let drawn = map.vans.filter { $0.onShift && $0.position != nil }
        var coordinates = map.places.map(\.coordinate)
        for van in drawn {
            coordinates.append(van.position!.coordinate)
            coordinates += van.stops.compactMap(\.coordinate)
        }
        let projection = MapProjection(fitting: coordinates)
        let colour = Dictionary(uniqueKeysWithValues: map.vans.enumerated().map { ($1.id, "van-c\($0 % Self.colours)") })

        let places: [[String: Any]] = map.places.map { place in
            var values = label(at: projection.point(place.coordinate), projection: projection, offset: 8)
            values["short"] = Self.shortName(place)
            return values
        }
        var routes: [[String: Any]] = [], markers: [[String: Any]] = []
        for van in drawn {
            let position = van.position!
            let start = projection.point(position.coordinate)
            let stops = van.stops.compactMap(\.coordinate).map(projection.point)
            if !stops.isEmpty {
                let path = ([start] + stops).enumerated().map { index, point in
                    "\(index == 0 ? "M" : "L")\(MapProjection.number(point.x)) \(MapProjection.number(point.y))"
                }.joined(separator: " ")
                routes.append([
                    "colour": colour[van.id]!, "d": path,
                    "stops": stops.map { ["cx": MapProjection.number($0.x), "cy": MapProjection.number($0.y)] },
                ])
            }
            // The van's name goes above its marker, clear of the label of a place it stands at,
            // running towards the middle of the drawing.
            let west = start.x < projection.width / 2
            var marker: [String: Any] = [
                "cx": MapProjection.number(start.x), "cy": MapProjection.number(start.y),
                "lx": MapProjection.number(start.x + (west ? -8 : 8)), "ly": MapProjection.number(start.y - 18),
                "anchor": west ? "start" : "end",
            ]
            marker["colour"] = colour[van.id]!
            marker["van"] = String(van.id)
            marker["label"] = van.status.positionKnown ? van.name : "\(van.name) · position \(Self.age(van.status.positionAgeSeconds ?? 0)) old"
            if !van.status.positionKnown { marker["stale"] = true }
            markers.append(marker)
        }
        return [
            "width": MapProjection.number(projection.width), "height": MapProjection.number(projection.height),
            "title": title(drawn: drawn.count), "desc": description(),
            "asOf": words.time(map.now),
            "places": places, "routes": routes, "markers": markers,
            "rows": map.vans.map { row($0, colour: colour[$0.id]!) },
        ]
    }

    /// The label's anchor beside a point: to the right, or to the left near the drawing's east edge.
    private func label(at point: (x: Double, y: Double), projection: MapProjection, offset: Double) -> [String: Any] {
        let east = point.x > projection.width - 160
        return [
            "cx": MapProjection.number(point.x), "cy": MapProjection.number(point.y),
            "lx": MapProjection.number(point.x + (east ? -offset : offset)), "ly": MapProjection.number(point.y + 5),
            "anchor": east ? "end" : "start",
        ]
    }

    private func title(drawn: Int) -> String {
        let vans = drawn == 1 ? "1 van" : "\(drawn) vans"
        let places = map.places.count == 1 ? "1 place" : "\(map.places.count) places"
        return "Map of \(places) and \(vans) on the road, as of \(words.time(map.now))"
    }

    /// One sentence per van: where it is and its next stop; the table below has the rest.
    private func description() -> String {
        let vans = map.vans.map { van -> String in
            guard van.onShift else { return "\(van.name) is not on shift." }
            var sentence = "\(van.name): \(positionWords(van))"
            if let next = van.stops.first { sentence += "; next stop \(next.kind == .pickup ? "pickup" : "drop-off") at \(next.place)" }
            return sentence + "."
        }
        return (vans + ["The table below the map lists the same."]).joined(separator: " ")
    }

    private func row(_ van: FleetMap.Van, colour: String) -> [String: Any] {
        var row: [String: Any] = ["van": van.name, "colour": colour]
        guard van.onShift else {
            row["driver"] = "Not on shift"
            row["position"] = "Not on the road"
            return row
        }
        if let netID = van.status.driver {
            row["driver"] = van.status.driverName.map { "\($0) (\(netID))" } ?? netID
        }
        row["position"] = positionWords(van)
        if van.position != nil && !van.status.positionKnown { row["stale"] = true }
        row["stops"] = van.stops.map { stop -> [String: Any] in
            var text = "\(words.time(stop.plannedAt)) \(stop.kind == .pickup ? "pickup" : "drop-off") \(stop.rider) at \(stop.place)"
            if let eta = stop.eta { text += ", expected \(words.time(eta))" }
            return ["text": text, "ref": stop.rideRef]
        }
        if !van.stops.isEmpty { row["hasStops"] = true }
        row["late"] = van.minutesLate.map { $0 == 0 ? "On time" : "\($0) min late" } ?? "No stops left"
        if (van.minutesLate ?? 0) > 0 { row["isLate"] = true }
        return row
    }

    /// "near SML, 1 min old", "unknown: position 4 min old (near SML)", "no position yet".
    func positionWords(_ van: FleetMap.Van) -> String {
        guard let position = van.position else { return "no position yet" }
        let age = Self.age(van.status.positionAgeSeconds ?? 0)
        let near = nearest(position.coordinate).map { "near \($0)" }
        if van.status.positionKnown { return [near, "\(age) old"].compactMap { $0 }.joined(separator: ", ") }
        return "unknown: position \(age) old" + (near.map { " (\($0))" } ?? "")
    }

    /// The short name of the place nearest `coordinate`, within ``nearMeters``.
    private func nearest(_ coordinate: Coordinate) -> String? {
        map.places.map { ($0, $0.coordinate.distance(to: coordinate)) }
            .filter { $0.1 <= Self.nearMeters }.min { $0.1 < $1.1 }.map { Self.shortName($0.0) }
    }

    /// A place's label on the map: its first alias, else its name.
    static func shortName(_ place: Place) -> String { place.aliases.first ?? place.name }

    /// "under 1 min", "4 min", "1 h 5 min".
    static func age(_ seconds: Int) -> String {
        let minutes = seconds / 60
        if minutes < 1 { return "under 1 min" }
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
