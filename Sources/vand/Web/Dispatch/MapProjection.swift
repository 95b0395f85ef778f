import Foundation
import VanDomain

/// Latitude and longitude onto the map's drawing: an equirectangular projection fitted to the
/// bounding box of the coordinates it is made from. A degree of longitude is drawn `cos(mid
/// latitude)` as wide as a degree of latitude, so distances look alike both ways; the box keeps
/// that aspect and is centred in the drawing, `padding` from its edges (room for labels).
struct MapProjection: Hashable, Sendable {
    /// The drawing's width and height (the SVG's `viewBox`).
    let width: Double
    let height: Double
    /// The box's west and north edges (degrees).
    let west: Double
    let north: Double
    /// `cos` of the box's middle latitude.
    let lonScale: Double
    /// Drawing units per degree of latitude.
    let unitsPerDegree: Double
    /// Where the box's west and north edges fall in the drawing.
    let left: Double
    let top: Double

    /// The smallest span fitted (degrees, about 110 m): one place, or all in a line, still gets a sensible scale.
    static let minimumSpan = 0.001

    /// Fitted to `coordinates` (at least one; none gives a box around 0,0) in a drawing `width`
    /// wide whose height follows the box's aspect, kept within `heights`.
    init(fitting coordinates: [Coordinate], width: Double = 800, heights: ClosedRange<Double> = 320...640, padding: Double = 48) {
        let lats = coordinates.map(\.latitude), lons = coordinates.map(\.longitude)
        var south = lats.min() ?? 0, north = lats.max() ?? 0, west = lons.min() ?? 0, east = lons.max() ?? 0
        let lonScale = cos((south + north) / 2 * .pi / 180)
        // Widen a degenerate box about its middle.
        if north - south < Self.minimumSpan {
            let middle = (north + south) / 2
            (south, north) = (middle - Self.minimumSpan / 2, middle + Self.minimumSpan / 2)
        }
        if (east - west) * lonScale < Self.minimumSpan {
            let middle = (east + west) / 2, half = Self.minimumSpan / lonScale / 2
            (west, east) = (middle - half, middle + half)
        }
        let boxWidth = (east - west) * lonScale, boxHeight = north - south
        let innerWidth = width - 2 * padding
        let height = min(max(innerWidth * boxHeight / boxWidth + 2 * padding, heights.lowerBound), heights.upperBound)
        let unitsPerDegree = min(innerWidth / boxWidth, (height - 2 * padding) / boxHeight)
        self.width = width
        self.height = height
        self.west = west
        self.north = north
        self.lonScale = lonScale
        self.unitsPerDegree = unitsPerDegree
        left = (width - boxWidth * unitsPerDegree) / 2
        top = (height - boxHeight * unitsPerDegree) / 2
    }

    /// Where `coordinate` falls in the drawing (x to the east, y to the south).
    func point(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        (left + (coordinate.longitude - west) * lonScale * unitsPerDegree, top + (north - coordinate.latitude) * unitsPerDegree)
    }

    /// A number for an SVG attribute: one decimal, no trailing ".0".
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(format: "%.1f", tenths / 10)
    }
}
