import Foundation
import VanDomain

/// Estimates how long a ride keeps a van busy and how long the van needs to get to the next pickup.
///
/// A trip is boarding + driving + alighting; driving is the haversine distance × `detourFactor`
/// ÷ `averageSpeedKmh`. Every figure is a stored property with the service's default, and the
/// struct encodes as a flat JSON object (missing keys take the defaults; decoding validates).
/// Results are rounded up to whole seconds (ignoring sub-microsecond floating-point noise).
public struct TripEstimator: Hashable, Sendable, Codable {
    /// Time to board an ambulatory rider, seconds (default 2 min).
    public var boarding: TimeInterval
    /// Time to board and secure a rider in a wheelchair, seconds (default 5 min).
    public var wheelchairBoarding: TimeInterval
    /// Time to let an ambulatory rider off, seconds (default 1 min).
    public var alighting: TimeInterval
    /// Time to release and unload a rider in a wheelchair, seconds (default 3 min).
    public var wheelchairAlighting: TimeInterval
    /// Road distance ÷ straight-line distance (default 1.3).
    public var detourFactor: Double
    /// Average driving speed in km/h (default 20).
    public var averageSpeedKmh: Double
    /// Driving time assumed for a trip with an end of unknown position, seconds (default 15 min).
    public var unknownLegDuration: TimeInterval
    /// Deadhead assumed when either end is of unknown position, seconds (default 10 min).
    public var unknownDeadhead: TimeInterval

    /// Creates an estimator; every figure defaults to the service's standard value.
    public init(
        boarding: TimeInterval = 120,
        wheelchairBoarding: TimeInterval = 300,
        alighting: TimeInterval = 60,
        wheelchairAlighting: TimeInterval = 180,
        detourFactor: Double = 1.3,
        averageSpeedKmh: Double = 20,
        unknownLegDuration: TimeInterval = 900,
        unknownDeadhead: TimeInterval = 600
    ) {
        self.boarding = boarding
        self.wheelchairBoarding = wheelchairBoarding
        self.alighting = alighting
        self.wheelchairAlighting = wheelchairAlighting
        self.detourFactor = detourFactor
        self.averageSpeedKmh = averageSpeedKmh
        self.unknownLegDuration = unknownLegDuration
        self.unknownDeadhead = unknownDeadhead
    }

    /// Pickup to drop-off between two known points: boarding + drive + alighting.
    public func tripDuration(from pickup: Coordinate, to dropoff: Coordinate, wheelchair: Bool) -> TimeInterval {
        Self.wholeSeconds(stops(wheelchair: wheelchair) + drive(from: pickup, to: dropoff))
    }

    /// Pickup to drop-off when either end may be unknown (`nil`, e.g. a typed address):
    /// the drive then takes `unknownLegDuration`.
    public func tripDuration(from pickup: Coordinate?, to dropoff: Coordinate?, wheelchair: Bool) -> TimeInterval {
        guard let pickup, let dropoff else {
            return Self.wholeSeconds(stops(wheelchair: wheelchair) + unknownLegDuration)
        }
        return tripDuration(from: pickup, to: dropoff, wheelchair: wheelchair)
    }

    /// The empty drive from one drop-off to the next pickup.
    public func deadhead(from dropoff: Coordinate, to pickup: Coordinate) -> TimeInterval {
        Self.wholeSeconds(drive(from: dropoff, to: pickup))
    }

    /// The empty drive when either end may be unknown (`nil`): then `unknownDeadhead`.
    public func deadhead(from dropoff: Coordinate?, to pickup: Coordinate?) -> TimeInterval {
        guard let dropoff, let pickup else { return Self.wholeSeconds(unknownDeadhead) }
        return deadhead(from: dropoff, to: pickup)
    }

    /// Checks every figure is finite and non-negative, and the detour factor and speed positive.
    /// - Throws: `ValidationError` naming the first bad figure (snake_case wire name).
    public func validate() throws(ValidationError) {
        let durations: [(String, Double)] = [
            ("boarding", boarding), ("wheelchair_boarding", wheelchairBoarding),
            ("alighting", alighting), ("wheelchair_alighting", wheelchairAlighting),
            ("unknown_leg_duration", unknownLegDuration), ("unknown_deadhead", unknownDeadhead),
        ]
        for (field, value) in durations where !(value.isFinite && value >= 0) {
            throw ValidationError(field: field, reason: "must be a number of seconds, 0 or more, got \(value)")
        }
        guard detourFactor.isFinite, detourFactor >= 1 else {
            throw ValidationError(field: "detour_factor", reason: "must be 1 or more (road ÷ straight line), got \(detourFactor)")
        }
        guard averageSpeedKmh.isFinite, averageSpeedKmh > 0 else {
            throw ValidationError(field: "average_speed_kmh", reason: "must be more than 0 km/h, got \(averageSpeedKmh)")
        }
    }

    private func stops(wheelchair: Bool) -> TimeInterval {
        wheelchair ? wheelchairBoarding + wheelchairAlighting : boarding + alighting
    }

    private func drive(from a: Coordinate, to b: Coordinate) -> TimeInterval {
        a.distance(to: b) * detourFactor / (averageSpeedKmh / 3.6)
    }

    /// Rounds up to a whole second, treating anything within a microsecond of one as exact.
    static func wholeSeconds(_ seconds: TimeInterval) -> TimeInterval {
        max(0, (seconds - 1e-6).rounded(.up))
    }

    private enum CodingKeys: String, CodingKey {
        case boarding, wheelchairBoarding, alighting, wheelchairAlighting
        case detourFactor, averageSpeedKmh, unknownLegDuration, unknownDeadhead
    }

    /// Decodes the figures present, defaulting the rest, then validates.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = TripEstimator()
        self.init(
            boarding: try c.decodeIfPresent(Double.self, forKey: .boarding) ?? d.boarding,
            wheelchairBoarding: try c.decodeIfPresent(Double.self, forKey: .wheelchairBoarding) ?? d.wheelchairBoarding,
            alighting: try c.decodeIfPresent(Double.self, forKey: .alighting) ?? d.alighting,
            wheelchairAlighting: try c.decodeIfPresent(Double.self, forKey: .wheelchairAlighting) ?? d.wheelchairAlighting,
            detourFactor: try c.decodeIfPresent(Double.self, forKey: .detourFactor) ?? d.detourFactor,
            averageSpeedKmh: try c.decodeIfPresent(Double.self, forKey: .averageSpeedKmh) ?? d.averageSpeedKmh,
            unknownLegDuration: try c.decodeIfPresent(Double.self, forKey: .unknownLegDuration) ?? d.unknownLegDuration,
            unknownDeadhead: try c.decodeIfPresent(Double.self, forKey: .unknownDeadhead) ?? d.unknownDeadhead
        )
        try validate()
    }
}
