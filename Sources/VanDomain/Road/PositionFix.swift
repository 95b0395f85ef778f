import Foundation

/// One position report of a van: where, how sure, and when it was taken. Built only from
/// values inside the ranges the database accepts, so a bad fix is refused before any I/O.
public struct PositionFix: Sendable, Hashable {
    /// Where the van was.
    public let coordinate: Coordinate
    /// The radius of 68% confidence in metres, when the device says.
    public let accuracyMeters: Double?
    /// When the fix was taken (nil: when it is received).
    public let at: Date?

    /// The largest accuracy radius accepted: a fix vaguer than 10 km says nothing of a campus.
    public static let worstAccuracy: Double = 10_000

    /// A fix from raw numbers; each bad one is a `ValidationError` naming its field
    /// (`lat`, `lon`, `accuracy_m`).
    public init(lat: Double, lon: Double, accuracyMeters: Double? = nil, at: Date? = nil) throws(ValidationError) {
        guard lat.isFinite, (-90...90).contains(lat) else { throw ValidationError(field: "lat", reason: "must be a latitude from -90 to 90") }
        guard lon.isFinite, (-180...180).contains(lon) else { throw ValidationError(field: "lon", reason: "must be a longitude from -180 to 180") }
        if let accuracyMeters {
            guard accuracyMeters.isFinite, accuracyMeters >= 0, accuracyMeters <= Self.worstAccuracy else {
                throw ValidationError(field: "accuracy_m", reason: "must be a number of metres from 0 to \(Int(Self.worstAccuracy))")
            }
        }
        self.coordinate = try Coordinate(latitude: lat, longitude: lon)
        self.accuracyMeters = accuracyMeters
        self.at = at
    }
}
