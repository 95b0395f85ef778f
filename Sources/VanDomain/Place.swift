import Foundation

/// A named campus landmark riders can pick instead of typing an address, e.g. "SSS".
public struct Place: Hashable, Sendable, Codable {
    /// Database id; `nil` for a place not yet stored.
    public var id: Int64?
    /// The display name, e.g. `"Sheffield-Sterling-Strathcona Hall"`.
    public var name: String
    /// Other names riders type, e.g. `["SSS"]`.
    public var aliases: [String]
    /// Where the van stops for this place.
    public var coordinate: Coordinate

    /// Creates a place.
    public init(id: Int64? = nil, name: String, aliases: [String] = [], coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.coordinate = coordinate
    }

    /// Whether `query` appears in the name or any alias, ignoring case and diacritics.
    ///
    /// A blank query matches every place, so `GET /v1/places?q=` lists them all.
    public func matches(_ query: String) -> Bool {
        matchQuality(query) != nil
    }

    /// How well `query` matches, for ranking search results; `nil` when it does not match.
    public func matchQuality(_ query: String) -> MatchQuality? {
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return .contains }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        var best: MatchQuality?
        for candidate in [name] + aliases {
            guard let range = candidate.range(of: needle, options: options) else { continue }
            let quality: MatchQuality
            if range == candidate.startIndex..<candidate.endIndex {
                quality = .exact
            } else if range.lowerBound == candidate.startIndex {
                quality = .prefix
            } else {
                quality = .contains
            }
            if best.map({ quality < $0 }) ?? true { best = quality }
        }
        return best
    }

    /// How a search query matched a place; better matches sort first (`.exact < .prefix < .contains`).
    public enum MatchQuality: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// The query is the whole name or alias.
        case exact
        /// The name or alias starts with the query.
        case prefix
        /// The query appears somewhere inside the name or alias.
        case contains

        /// Orders better matches first.
        public static func < (lhs: MatchQuality, rhs: MatchQuality) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}
