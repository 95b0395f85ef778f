import Foundation

/// A WGS 84 position in degrees. Encodes as `{"lat": …, "lon": …}`; decoding validates.
public struct Coordinate: Hashable, Sendable, Codable {
    /// Degrees north of the equator, -90...90.
    public let latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public let longitude: Double

    /// Mean Earth radius (IUGG) used by `distance(to:)`, in meters.
    public static let earthRadius: Double = 6_371_008.8

    /// Creates a coordinate after checking both values are finite and in range.
    /// - Throws: `ValidationError` with field `"lat"` or `"lon"`.
    public init(latitude: Double, longitude: Double) throws(ValidationError) {
        guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
            throw ValidationError(field: "lat", reason: "must be a number between -90 and 90, got \(latitude)")
        }
        guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
            throw ValidationError(field: "lon", reason: "must be a number between -180 and 180, got \(longitude)")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A constant known to be in range (checked in debug builds), for fixed places in code.
    init(constant latitude: Double, _ longitude: Double) {
        assert((-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude), "coordinate constant out of range")
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance to `other` in meters (haversine on a sphere of `earthRadius`).
    public func distance(to other: Coordinate) -> Double {
        let phi1 = latitude * .pi / 180
        let phi2 = other.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (other.longitude - longitude) * .pi / 180
        let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        // atan2 stays in range even when rounding pushes `a` a hair past 1 near antipodes.
        let c = 2 * atan2(sqrt(a), sqrt(max(0, 1 - a)))
        return Self.earthRadius * c
    }

    private enum CodingKeys: String, CodingKey {
        case latitude = "lat"
        case longitude = "lon"
    }

    /// Decodes `{"lat": …, "lon": …}` and validates the range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: container.decode(Double.self, forKey: .latitude),
            longitude: container.decode(Double.self, forKey: .longitude)
        )
    }

    /// Encodes as `{"lat": …, "lon": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
    }
}
