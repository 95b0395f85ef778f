import Foundation

/// One stop of a ride as the on-time figures read it: what was planned and promised, and what
/// the driver's taps recorded (the `stop_actuals` view). Planned times are the planner's; actual
/// times come only from taps.
public struct RecordedStop: Sendable, Hashable, Codable {
    /// Pickup or drop-off.
    public var kind: StopKind
    /// The ride's promise (its kind says which stop the window is on).
    public var promise: RidePromise
    /// The planned time of the stop: the ride's pickup time, or its estimated drop-off.
    public var planned: Date
    /// When the driver tapped "arrived".
    public var arrivedAt: Date?
    /// When the driver tapped the outcome ("on board", "no-show", "dropped off").
    public var departedAt: Date?
    /// The outcome tapped: boarded or no-show at a pickup, dropped off at a drop-off.
    public var outcome: TapAction?
    /// For a drop-off: when its rider boarded (the pickup's "on board" tap).
    public var boardedAt: Date?
    /// The ride's longest allowed ride time, seconds.
    public var maxRideTime: TimeInterval
    /// The scheduler's direct ride (boarding and the drive, riding alone), seconds.
    public var directRide: TimeInterval

    /// A stop; the actual times default to none (not recorded).
    public init(
        kind: StopKind, promise: RidePromise, planned: Date, arrivedAt: Date? = nil, departedAt: Date? = nil,
        outcome: TapAction? = nil, boardedAt: Date? = nil, maxRideTime: TimeInterval, directRide: TimeInterval
    ) {
        self.kind = kind
        self.promise = promise
        self.planned = planned
        self.arrivedAt = arrivedAt
        self.departedAt = departedAt
        self.outcome = outcome
        self.boardedAt = boardedAt
        self.maxRideTime = maxRideTime
        self.directRide = directRide
    }

    /// When the van was at the stop: the "arrived" tap, else the outcome's tap when the driver
    /// tapped only that. Nil: not recorded.
    public var actualAt: Date? { arrivedAt ?? departedAt }

    /// Whether the ride's promise is on this stop: a pickup of a ride promised a pickup window,
    /// a drop-off of an arrive-by ride.
    public var isPromised: Bool {
        switch kind {
        case .pickup: promise.kind == .pickup
        case .dropoff: promise.kind == .arriveBy
        }
    }
}
