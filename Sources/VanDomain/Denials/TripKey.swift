import Foundation

/// Which trip a request is for, so a second request of the same trip can be told from a new one:
/// her pickup and drop-off, each as its known place, else its map point to about 10 m, else its
/// address in lower case with its spaces folded (`"place:3>addr:180 york st"`).
public struct TripKey: Hashable, Sendable, CustomStringConvertible {
    /// The key as stored.
    public let rawValue: String

    /// The key of the trip from `pickup` to `dropoff`.
    public init(from pickup: RideEndpoint, to dropoff: RideEndpoint) {
        rawValue = Self.part(pickup) + ">" + Self.part(dropoff)
    }

    /// A stored key, as it was written.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The stored key.
    public var description: String { rawValue }

    private static func part(_ end: RideEndpoint) -> String {
        if let placeID = end.placeID { return "place:\(placeID)" }
        if let point = end.coordinate { return String(format: "at:%.4f,%.4f", point.latitude, point.longitude) }
        let words = (end.address ?? "").lowercased().split(whereSeparator: { $0.isWhitespace })
        return "addr:" + words.joined(separator: " ")
    }
}
