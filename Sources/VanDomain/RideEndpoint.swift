import Foundation

/// One end of a ride: a known place, a typed address, a map point, or a mix of them.
public struct RideEndpoint: Hashable, Sendable, Codable {
    /// What the rider typed, e.g. `"180 York St"`.
    public var address: String?
    /// Where the van should stop, when known.
    public var coordinate: Coordinate?
    /// The resolved `Place.id`, when the endpoint is a known landmark.
    public var placeID: Int64?
    /// The resolved `Place.name`, kept so messages need no lookup.
    public var placeName: String?

    /// Creates an endpoint; every part is optional, but a usable one has at least one.
    public init(address: String? = nil, coordinate: Coordinate? = nil, placeID: Int64? = nil, placeName: String? = nil) {
        self.address = address
        self.coordinate = coordinate
        self.placeID = placeID
        self.placeName = placeName
    }

    /// Whether there is nothing to drive to: no place, no address, no coordinate.
    public var isEmpty: Bool {
        Self.nonBlank(placeName) == nil && Self.nonBlank(address) == nil && coordinate == nil && placeID == nil
    }

    /// What to show people: the place name, else the address, else `"41.31140, -72.92620"`.
    public var displayName: String {
        if let placeName = Self.nonBlank(placeName) { return placeName }
        if let address = Self.nonBlank(address) { return address }
        if let coordinate {
            return String(format: "%.5f, %.5f", coordinate.latitude, coordinate.longitude)
        }
        if let placeID { return "place #\(placeID)" }
        return "unspecified location"
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        // The usual case, text with no space at either end, needs no Foundation trimming (which
        // bridges through NSString and was a tenth of the CPU time of listing rides).
        if text.hasVisibleASCIIEnds { return text }
        if let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            !first.properties.isWhitespace, !last.properties.isWhitespace
        {
            return text
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
