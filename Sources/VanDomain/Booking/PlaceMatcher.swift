import Foundation

/// Turns what a rider typed or sent (a place name, an address, GPS) into a
/// ``RideEndpoint`` the driver can read, using the known places.
public struct PlaceMatcher: Sendable {
    /// The known places.
    public let places: [Place]
    /// The service-area and match rules.
    public let policy: BookingPolicy

    /// A matcher over `places`.
    public init(places: [Place], policy: BookingPolicy) {
        self.places = places
        self.policy = policy
    }

    /// What the rider gave for one end of the trip.
    public struct Input: Hashable, Sendable, Codable {
        /// A place name or alias ("SCL").
        public var place: String?
        /// A free-text address.
        public var address: String?
        /// GPS latitude.
        public var lat: Double?
        /// GPS longitude.
        public var lon: Double?

        /// Creates an input.
        public init(place: String? = nil, address: String? = nil, lat: Double? = nil, lon: Double? = nil) {
            self.place = place
            self.address = address
            self.lat = lat
            self.lon = lon
        }
    }

    /// Resolves one end; `field` is `pickup` or `dropoff` and prefixes error fields.
    /// A place name must match a place or alias exactly (case-insensitive); if not, the error
    /// lists the closest names. GPS within `placeMatchRadius` of a place is labelled with it.
    public func resolve(_ input: Input, field: String) throws(ValidationError) -> RideEndpoint {
        var address = input.address?.trimmingCharacters(in: .whitespacesAndNewlines)
        if address?.isEmpty == true { address = nil }
        try ValidationError.checkNoNul(address, field: "\(field).address")
        try ValidationError.checkNoNul(input.place, field: "\(field).place")
        if let address, address.count > policy.maxAddressLength {
            throw ValidationError(field: "\(field).address", reason: "is longer than \(policy.maxAddressLength) characters")
        }
        if let name = input.place?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty {
            guard let place = places.first(where: { $0.matchQuality(name) == .exact }) else {
                let close = closeMatches(to: name)
                let hint = close.isEmpty ? "see GET /v1/places" : "did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?"
                throw ValidationError(field: "\(field).place", reason: "'\(name)' is not a known place; \(hint)")
            }
            return RideEndpoint(address: address, coordinate: place.coordinate, placeID: place.id, placeName: place.name)
        }
        switch (input.lat, input.lon) {
        case (let lat?, let lon?):
            let coordinate: Coordinate
            do {
                coordinate = try Coordinate(latitude: lat, longitude: lon)
            } catch {
                throw ValidationError(field: "\(field).\(error.field)", reason: error.reason)
            }
            try policy.checkInServiceArea(coordinate, field: field)
            let nearest = places.min { $0.coordinate.distance(to: coordinate) < $1.coordinate.distance(to: coordinate) }
            if let nearest, nearest.coordinate.distance(to: coordinate) <= policy.placeMatchRadius {
                return RideEndpoint(address: address, coordinate: coordinate, placeID: nearest.id, placeName: nearest.name)
            }
            return RideEndpoint(address: address, coordinate: coordinate)
        case (nil, nil):
            guard let address else {
                throw ValidationError(field: field, reason: "give a place name, an address, or lat and lon")
            }
            return RideEndpoint(address: address)
        default:
            throw ValidationError(field: "\(field).\(input.lat == nil ? "lat" : "lon")", reason: "give both lat and lon, or neither")
        }
    }

    /// Up to three place names closest to `query`: containing it first, then by edit distance.
    public func closeMatches(to query: String) -> [String] {
        let q = query.lowercased()
        let scored = places.map { place -> (String, Int) in
            let names = [place.name] + place.aliases
            let best =
                names.map { name -> Int in
                    let n = name.lowercased()
                    if n.contains(q) || q.contains(n) { return 0 }
                    return Self.editDistance(n, q)
                }.min() ?? .max
            return (place.name, best)
        }
        return scored.filter { $0.1 <= max(2, q.count / 3) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
