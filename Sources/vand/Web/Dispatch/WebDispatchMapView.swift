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

        var routes: [[String: Any]] = [], markers: [[String: Any]] = []
        var rings: [(x: Double, y: Double)] = [], vanLabels: [(text: String, x: Double, y: Double)] = []
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
            rings += stops
            let label = van.status.positionKnown ? van.name : "\(van.name) · position \(Self.age(van.status.positionAgeSeconds ?? 0)) old"
            var marker: [String: Any] = ["cx": MapProjection.number(start.x), "cy": MapProjection.number(start.y), "label": label]
            marker["colour"] = colour[van.id]!
            marker["van"] = String(van.id)
            if !van.status.positionKnown { marker["stale"] = true }
            markers.append(marker)
            vanLabels.append((label, start.x, start.y))
        }
        let dots = map.places.map { projection.point($0.coordinate) }
        let placement = Self.placeLabels(
            width: projection.width, height: projection.height, vans: vanLabels,
            places: zip(map.places, dots).map { (Self.shortName($0), $1.x, $1.y) }, stops: rings)
        for (index, placed) in placement.prefix(markers.count).enumerated() {
            markers[index].merge(Self.attributes(placed)) { _, new in new }
        }
        let places: [[String: Any]] = zip(zip(map.places, dots), placement.dropFirst(markers.count)).map { pair, placed in
            var values = Self.attributes(placed)
            values["cx"] = MapProjection.number(pair.1.x)
            values["cy"] = MapProjection.number(pair.1.y)
            values["short"] = Self.shortName(pair.0)
            return values
        }
        return [
            "width": MapProjection.number(projection.width), "height": MapProjection.number(projection.height),
            "title": title(drawn: drawn.count), "desc": description(),
            "asOf": words.time(map.now),
            "places": places, "routes": routes, "markers": markers,
            "rows": map.vans.map { row($0, colour: colour[$0.id]!) },
        ]
    }

    /// How far from its centre each mark of `dispatch-map-part.mustache` reaches (its radius and
    /// half its stroke): a place's dot, a stop's ring, a van's marker. Labels keep clear of them.
    static let placeRadius = 5.0, stopRadius = 9.5, vanRadius = 12.0

    /// Every label of the drawing placed by ``MapLabelPlacement``: the vans' names (17 px bold)
    /// first, then the places' short names (15 px), each clear of the others and of every place's
    /// dot, stop's ring and van's marker where the drawing has room.
    static func placeLabels(
        width: Double, height: Double, vans: [(text: String, x: Double, y: Double)],
        places: [(text: String, x: Double, y: Double)], stops: [(x: Double, y: Double)]
    ) -> [MapLabelPlacement.Placed] {
        let marks =
            places.map { MapLabelPlacement.Box(circle: $0.x, $0.y, radius: placeRadius) }
            + stops.map { MapLabelPlacement.Box(circle: $0.x, $0.y, radius: stopRadius) }
            + vans.map { MapLabelPlacement.Box(circle: $0.x, $0.y, radius: vanRadius) }
        let labels =
            vans.map { MapLabelPlacement.Label(text: $0.text, x: $0.x, y: $0.y, radius: vanRadius, fontSize: 17, bold: true) }
            + places.map { MapLabelPlacement.Label(text: $0.text, x: $0.x, y: $0.y, radius: placeRadius, fontSize: 15) }
        return MapLabelPlacement(bounds: .init(minX: 0, minY: 0, maxX: width, maxY: height)).place(labels, avoiding: marks)
    }

    /// A placed label's template values: `lx`, `ly`, `anchor`, and the leader line's ends (`leader`) if it has one.
    static func attributes(_ placed: MapLabelPlacement.Placed) -> [String: Any] {
        var values: [String: Any] = [
            "lx": MapProjection.number(placed.x), "ly": MapProjection.number(placed.y), "anchor": placed.anchor,
            "leader": false,
        ]
        if let line = placed.leader {
            values["leader"] = [
                "x1": MapProjection.number(line.x1), "y1": MapProjection.number(line.y1),
                "x2": MapProjection.number(line.x2), "y2": MapProjection.number(line.y2),
            ]
        }
        return values
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
            if let next = van.stops.first {
                sentence += "; next stop \(next.kind == .pickup ? "pickup" : "drop-off") at \(BidiIsolation.isolated(next.place))"
            }
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
            var text =
                "\(words.time(stop.plannedAt)) \(stop.kind == .pickup ? "pickup" : "drop-off") \(BidiIsolation.isolated(stop.rider)) at \(BidiIsolation.isolated(stop.place))"
            if let eta = stop.eta { text += ", expected \(words.time(eta))" }
            if let late = stop.lateness, late.isLate { text += ", \(late.words)" }
            return ["text": text, "ref": stop.rideRef]
        }
        if !van.stops.isEmpty { row["hasStops"] = true }
        // The latest of its next stops against their promises, by the one rule (``Lateness``).
        row["late"] = van.stops.isEmpty ? "No stops left" : (van.lateness ?? .onTime).words
        if van.lateness?.isLate == true { row["isLate"] = true }
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
