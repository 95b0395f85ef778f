import Foundation
import VanDomain

/// One tap a driver made at a stop (`stop_taps`, sql/0028): what, when, where the van was, and
/// whether it was undone.
public struct StopTap: Sendable, Hashable {
    /// The row's id.
    public let id: Int64
    /// The client's key for the tap: the same key again answers this tap.
    public let tapKey: UUID
    /// The shift it was made on.
    public let shiftID: Int64
    /// The ride.
    public let rideID: UUID
    /// Which stop of the ride.
    public let stop: StopKind
    /// What was tapped.
    public let action: TapAction
    /// When it was recorded (the server's clock).
    public let at: Date
    /// Where the van was, when known.
    public let coordinate: Coordinate?
    /// How sure that position is, in metres.
    public let accuracyMeters: Double?
    /// When it was undone (nil: it stands).
    public let undoneAt: Date?
    /// Until when the driver may undo it (``RoadSettings/undoWindow`` after ``at``).
    public let undoUntil: Date

    /// Creates a value.
    public init(
        id: Int64, tapKey: UUID, shiftID: Int64, rideID: UUID, stop: StopKind, action: TapAction, at: Date,
        coordinate: Coordinate? = nil, accuracyMeters: Double? = nil, undoneAt: Date? = nil, undoUntil: Date
    ) {
        self.id = id
        self.tapKey = tapKey
        self.shiftID = shiftID
        self.rideID = rideID
        self.stop = stop
        self.action = action
        self.at = at
        self.coordinate = coordinate
        self.accuracyMeters = accuracyMeters
        self.undoneAt = undoneAt
        self.undoUntil = undoUntil
    }

    /// Whether the tap stands (was not undone).
    public var stands: Bool { undoneAt == nil }

    /// Whether it may still be undone at `now`.
    public func undoable(at now: Date) -> Bool { stands && now <= undoUntil }
}

/// A tap as the driver sends it.
public struct TapRequest: Sendable, Hashable {
    /// A uuid the client makes once per tap and sends again on a retry.
    public var tapKey: UUID
    /// The ride whose stop it is.
    public var rideID: UUID
    /// Which stop.
    public var stop: StopKind
    /// What happened.
    public var action: TapAction
    /// Where the van is, if the phone knows.
    public var position: PositionFix?

    /// Creates a request.
    public init(tapKey: UUID, rideID: UUID, stop: StopKind, action: TapAction, position: PositionFix? = nil) {
        self.tapKey = tapKey
        self.rideID = rideID
        self.stop = stop
        self.action = action
        self.position = position
    }
}

/// What a tap did.
public struct TapResult: Sendable, Hashable {
    /// How the request was answered.
    public enum Outcome: String, Sendable, Hashable {
        /// The tap was recorded now.
        case applied
        /// The stop already had this action standing (a double tap): nothing changed.
        case alreadyDone = "already_done"
        /// The same tap key came again (a retry): the first answer, nothing changed.
        case retried
    }

    /// How it was answered.
    public let outcome: Outcome
    /// The tap that stands for it (the earlier one for a double tap or a retry).
    public let tap: StopTap
    /// The ride's status after it.
    public let rideStatus: RideStatus

    /// Creates a value.
    public init(outcome: Outcome, tap: StopTap, rideStatus: RideStatus) {
        self.outcome = outcome
        self.tap = tap
        self.rideStatus = rideStatus
    }
}
