import Foundation

/// Where the map's labels go so that none covers another, a place's dot or a van's marker: each
/// label, in the order given, takes the first of the positions around its point (right, left,
/// above, below, the corners, and so on; then the same further out) whose estimated text box is clear of
/// the labels placed before it, of every mark, and inside the drawing; one further out gets a
/// leader line to its point. A label with no clear position takes the one that overlaps least. Pure: text boxes are estimated from the characters
/// and the font size (the drawing is never measured), with a margin for the text's halo.
struct MapLabelPlacement {
    /// A rectangle in drawing units (y grows downwards).
    struct Box: Hashable, Sendable {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        /// The box of a circle.
        init(circle x: Double, _ y: Double, radius: Double) {
            (minX, minY, maxX, maxY) = (x - radius, y - radius, x + radius, y + radius)
        }

        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        }

        /// The area both boxes cover (0 when they only touch or are apart).
        func overlap(_ other: Box) -> Double {
            max(0, min(maxX, other.maxX) - max(minX, other.minX)) * max(0, min(maxY, other.maxY) - max(minY, other.minY))
        }

        /// Whether `other` lies wholly inside.
        func contains(_ other: Box) -> Bool {
            other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
        }
    }

    /// A label to place: its text beside the point (x, y) drawn with a mark of `radius`.
    struct Label: Sendable {
        var text: String
        var x: Double
        var y: Double
        /// The mark's radius: the text starts `radius + gap` from the point.
        var radius: Double
        /// The font size (drawing units) and whether it is bold.
        var fontSize: Double
        var bold = false
    }

    /// A placed label: the text's anchor point (`x`, baseline `y`), its `text-anchor`, its box,
    /// and a leader line (from the mark's edge to the text) when it stands away from its point.
    struct Placed: Sendable {
        var x: Double
        var y: Double
        /// `start`, `middle` or `end`.
        var anchor: String
        var box: Box
        var leader: (x1: Double, y1: Double, x2: Double, y2: Double)?
    }

    /// The drawing's edges: a label stays inside.
    let bounds: Box
    /// Space between a mark and its label.
    var gap = 3.0
    /// Margin around a text's glyphs (the halo the map draws behind text).
    var halo = 3.0

    /// Places `labels` in order, clear of `marks` (dots and markers) and of each other where it can.
    func place(_ labels: [Label], avoiding marks: [Box]) -> [Placed] {
        var placed: [Placed] = []
        for label in labels {
            let width = Self.width(label.text, fontSize: label.fontSize, bold: label.bold)
            let candidates = self.candidates(label, width: width)
            var best = candidates[0], bestCost = Double.infinity
            for candidate in candidates {
                let cost = self.cost(candidate.box, placed: placed, marks: marks)
                if cost < bestCost { (best, bestCost) = (candidate, cost) }
                if cost == 0 { break }
            }
            placed.append(best)
        }
        return placed
    }

    /// How much `box` covers what is there already, and how far it leaves the drawing: text over
    /// text counts ten times text over a mark (a mark half hidden still shows where it is).
    private func cost(_ box: Box, placed: [Placed], marks: [Box]) -> Double {
        var cost = placed.reduce(0) { $0 + 10 * box.overlap($1.box) } + marks.reduce(0) { $0 + box.overlap($1) }
        if !bounds.contains(box) {
            let area = (box.maxX - box.minX) * (box.maxY - box.minY)
            cost += area - box.overlap(bounds) + 1
        }
        return cost
    }

    /// The directions tried around a point, in degrees clockwise from east (y grows downwards):
    /// right, left, above, below, the four corners, then the four in between.
    static let directions: [Double] = [0, 180, 270, 90, 330, 30, 210, 150, 300, 60, 240, 120]
    /// How far out, in steps of the mark's radius and the gap.
    static let rings: [Double] = [1, 2, 3, 4, 5, 6]

    /// The positions tried, in order of preference: every direction close to the point, then
    /// every direction a step further out. The text's box touches the position on the side
    /// facing the point: a label to the right starts there, one to the left ends there, one
    /// above or below is centred on it.
    private func candidates(_ label: Label, width: Double) -> [Placed] {
        let ascent = label.fontSize * 0.75, descent = label.fontSize * 0.25
        var result: [Placed] = []
        for ring in Self.rings {
            let distance = (label.radius + gap) * ring
            for degrees in Self.directions {
                let (dx, dy) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
                let (x, y) = (label.x + distance * dx, label.y + distance * dy)
                let anchor = dx > 0.3 ? "start" : dx < -0.3 ? "end" : "middle"
                let baseline = dy < -0.3 ? y - descent : dy > 0.3 ? y + ascent : y + (ascent - descent) / 2
                let left = anchor == "start" ? x : anchor == "end" ? x - width : x - width / 2
                let box = Box(minX: left - halo, minY: baseline - ascent - halo, maxX: left + width + halo, maxY: baseline + descent + halo)
                var placed = Placed(x: x, y: baseline, anchor: anchor, box: box)
                // Away from its point: a line leads from the mark's edge to the text.
                if ring > 1 {
                    placed.leader = (label.x + label.radius * dx, label.y + label.radius * dy, x, y)
                }
                result.append(placed)
            }
        }
        return result
    }

    /// The estimated advance of `text` in a sans-serif face at `fontSize`: capitals and digits
    /// wider than lower case, narrow letters and spaces narrower; a bold face about 8% wider.
    static func width(_ text: String, fontSize: Double, bold: Bool = false) -> Double {
        let ems = text.reduce(0.0) { sum, character in
            switch character {
            case "i", "l", "j", "I", "'", "’", ".", ",", ":", ";", "!", "|": return sum + 0.3
            case " ", "f", "t", "r", "(", ")", "-", "·": return sum + 0.38
            case "m", "w", "M", "W": return sum + 0.9
            case _ where character.isUppercase || character.isNumber: return sum + 0.7
            default: return sum + 0.6
            }
        }
        return ems * fontSize * (bold ? 1.08 : 1)
    }
}
