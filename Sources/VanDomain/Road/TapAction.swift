/// What a driver taps at a stop. At a pickup: ``arrived``, then ``boarded`` or ``noShow``; at a
/// drop-off: ``arrived``, then ``droppedOff``. The database says the same
/// (`stop_taps_action_fits_stop`, sql/0028).
public enum TapAction: String, Sendable, Codable, CaseIterable, Hashable {
    /// The van is at the stop.
    case arrived
    /// The rider is on board (pickup only).
    case boarded
    /// The rider was not there after the wait (pickup only); the ride ends `no_show`.
    case noShow = "no_show"
    /// The rider got off (drop-off only); the ride ends `completed`.
    case droppedOff = "dropped_off"

    /// Whether this action can be tapped at a stop of `kind`.
    public func fits(_ kind: StopKind) -> Bool {
        switch self {
        case .arrived: true
        case .boarded, .noShow: kind == .pickup
        case .droppedOff: kind == .dropoff
        }
    }

    /// Whether this action ends the stop (the van leaves): every action but ``arrived``.
    public var isOutcome: Bool { self != .arrived }

    /// The ride status this action ends the ride in, if it ends it.
    public var rideStatus: RideStatus? {
        switch self {
        case .noShow: .noShow
        case .droppedOff: .completed
        case .arrived, .boarded: nil
        }
    }

    /// Lower-case words for sentences, e.g. "on board".
    public var phrase: String {
        switch self {
        case .arrived: "arrived"
        case .boarded: "on board"
        case .noShow: "no-show"
        case .droppedOff: "dropped off"
        }
    }
}
