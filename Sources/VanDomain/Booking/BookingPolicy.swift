import Foundation

/// The rider-facing limits on a booking, checked before the scheduler runs.
/// Each refusal is a ``ValidationError`` naming the request field.
public struct BookingPolicy: Hashable, Sendable {
    /// How far ahead a ride may be booked (default 14 days).
    public var horizon: TimeInterval = 14 * 86_400
    /// How far ahead a standing series may run (default 120 days: a term).
    public var seriesHorizon: TimeInterval = 120 * 86_400
    /// On-demand pickups are this long after the request (default 5 minutes).
    public var onDemandLead: TimeInterval = 5 * 60
    /// The centre of the service area.
    public var serviceCenter: Coordinate
    /// How far from the centre pickups and drop-offs may be (default 8 km).
    public var serviceRadius: Double = 8_000
    /// A GPS point this close to a known place is shown as that place (default 150 m).
    public var placeMatchRadius: Double = 150
    /// Longest note for the driver.
    public var maxNoteLength = 500
    /// Longest free-text address.
    public var maxAddressLength = 200
    /// Most companions riding along.
    public var maxCompanions = 2
    /// A cancellation this close to pickup is recorded as late (default 1 hour).
    public var lateCancellation: TimeInterval = 3_600
    /// A will-call way back is picked up within this long of her "I'm ready" (default 30 minutes),
    /// or refused then (her call stays open).
    public var willCallMaxWait: TimeInterval = 30 * 60

    /// A policy around `serviceCenter` with the defaults above.
    public init(serviceCenter: Coordinate) {
        self.serviceCenter = serviceCenter
    }

    /// Yale's Cross Campus, the default service centre.
    public static let yaleCenter = Coordinate(constant: 41.3111, -72.9267)

    /// Checks a pickup time: not in the past and not beyond the horizon.
    public func checkPickupTime(_ pickupAt: Date, now: Date, field: String = "pickup_at", horizon: TimeInterval? = nil) throws(ValidationError) {
        if pickupAt < now.addingTimeInterval(-60) {
            throw ValidationError(field: field, reason: "is in the past; choose a time from now on")
        }
        let limit = horizon ?? self.horizon
        if pickupAt > now.addingTimeInterval(limit) {
            throw ValidationError(field: field, reason: "is more than \(Int(limit / 86_400)) days ahead; book closer to the day")
        }
    }

    /// Checks a coordinate lies within the service area.
    public func checkInServiceArea(_ coordinate: Coordinate, field: String) throws(ValidationError) {
        let distance = coordinate.distance(to: serviceCenter)
        if distance > serviceRadius {
            throw ValidationError(
                field: field,
                reason:
                    "is \(String(format: "%.1f", distance / 1_000)) km from campus; the van serves \(String(format: "%.1f", serviceRadius / 1_000)) km around it"
            )
        }
    }

    /// Checks companions, and the note's length and that it holds no NUL.
    public func checkDetails(companions: Int, note: String?) throws(ValidationError) {
        guard (0...maxCompanions).contains(companions) else {
            throw ValidationError(field: "companions", reason: "must be 0 to \(maxCompanions)")
        }
        try ValidationError.checkNoNul(note, field: "note")
        if let note, note.count > maxNoteLength {
            throw ValidationError(field: "note", reason: "is longer than \(maxNoteLength) characters")
        }
    }
}
