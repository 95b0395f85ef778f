import Foundation

/// Who may do what to a ride, by its status, where it is on the road and the time: one rule that
/// the API, the web app, the console, `vanadmin` and the pages that offer the buttons all ask, so
/// that no path allows what another refuses and no page offers what the service would refuse.
/// Pure: the action, the actor and the ride's state in, a typed refusal (with its sentence) out.
/// The driver's taps and their undo are in RidePolicy+Taps.swift; moves of a ride under way
/// are held by the database (sql/0033).
public enum RidePolicy {
    /// What is done to the ride.
    public enum Action: Sendable, Hashable {
        /// Cancelled (by the rider, or by the office for the service).
        case cancel
        /// Recorded a no-show by the office (the driver's tap has its own rule: ``NoShowRule``).
        case noShow
        /// Marked completed by the office.
        case complete

        /// The status the action leaves the ride in.
        public var status: RideStatus {
            switch self {
            case .cancel: .cancelled
            case .noShow: .noShow
            case .complete: .completed
            }
        }
    }

    /// Who does it.
    public enum Actor: Sendable, Hashable {
        /// The rider herself (or the office on the phone for her).
        case rider
        /// The driver, by her taps.
        case driver
        /// The office: a dispatcher in the console or `vanadmin`.
        case dispatcher
    }

    /// Where the ride is on the road: the standing tap at its pickup.
    public enum Progress: Sendable, Hashable {
        /// No tap at the pickup.
        case notReached
        /// The van is at the pickup ("arrived").
        case arrived
        /// The rider is on board.
        case boarded
        /// The driver marked her a no-show.
        case noShow
    }

    /// Why not.
    public enum Refusal: Sendable, Hashable {
        /// The status table forbids it (the ride is already cancelled, completed, …).
        case status(RideStatus)
        /// The rider is on board.
        case onBoard
        /// The rider's cancel once the planned pickup time has passed.
        case afterPickup
        /// The office's no-show or completion before the planned pickup time.
        case beforePickup
        /// A driver ends a ride by her taps at its stops (``tapRefusal(_:at:_:rule:now:)``), not by these.
        case byTaps
    }

    /// Why `actor` may not do `action` to a ride in `status`, planned to be picked up at `pickupAt`,
    /// at `progress` on the road, at `now`; nil when it may.
    public static func refusal(
        _ action: Action, by actor: Actor, status: RideStatus, pickupAt: Date, progress: Progress, now: Date
    ) -> Refusal? {
        guard status.canTransition(to: action.status) else { return .status(status) }
        switch (action, progress) {
        case (.cancel, .boarded), (.noShow, .boarded): return .onBoard
        default: break
        }
        switch (action, actor) {
        case (_, .driver): return .byTaps
        case (.cancel, .rider): return now < pickupAt ? nil : .afterPickup
        case (.noShow, .dispatcher), (.complete, .dispatcher): return now < pickupAt ? .beforePickup : nil
        default: return nil
        }
    }

    /// The sentence `actor` reads for `refusal` of `action`, saying what to do instead.
    public static func sentence(_ refusal: Refusal, _ action: Action, by actor: Actor) -> String {
        switch (refusal, action, actor) {
        case (.status(let status), _, _):
            let verb =
                switch action {
                case .cancel: "cancelled"
                case .noShow: "marked a no-show"
                case .complete: "marked completed"
                }
            return "the ride is \(status.rawValue.replacingOccurrences(of: "_", with: " ")) and cannot be \(verb)"
        case (.onBoard, .cancel, .rider):
            return "you are on board the van; to change where you get off, tell the driver"
        case (.onBoard, .cancel, _):
            return
                "the rider is on board: a ride under way is not cancelled; the driver's drop-off ends it (call the driver to change where she gets off)"
        case (.onBoard, _, _):
            return "the driver tapped On board: a rider who boarded is not a no-show; if the tap was a mistake, the driver undoes it"
        case (.afterPickup, _, _):
            return "the pickup time has passed; call the dispatcher"
        case (.beforePickup, _, _):
            return "the pickup time has not come yet; mark it after the pickup"
        case (.byTaps, _, _):
            return "a driver ends a ride by her taps at its stops; call the dispatcher to change it"
        }
    }
}
