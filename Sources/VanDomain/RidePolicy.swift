import Foundation

/// Who may do what to a ride, by where the ride is on the road: one rule that the API, the
/// console, `vanadmin` and the driver's taps all ask, so that no path allows what another
/// refuses. Pure: the action, the actor and the ride's progress in, a refusal's sentence out.
public enum RidePolicy {
    /// What is done to the ride.
    public enum Action: Sendable, Hashable {
        /// Cancelled (by the rider, or by the office for the service).
        case cancel
        /// Recorded a no-show by the office (the driver's tap has its own rule: ``NoShowRule``).
        case noShow
    }

    /// Who does it.
    public enum Actor: Sendable, Hashable {
        /// The rider herself (or the office on the phone for her).
        case rider
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

    /// Why `actor` may not do `action` to a ride at `progress`, in one sentence that says what to
    /// do instead; nil when it may. The ride's status (``RideStatus/canTransition(to:)``) is
    /// checked besides this.
    public static func refusal(_ action: Action, by actor: Actor, progress: Progress) -> String? {
        switch (action, progress) {
        case (.cancel, .boarded):
            return actor == .rider
                ? "you are on board the van; to change where you get off, tell the driver"
                : "the rider is on board: a ride under way is not cancelled; the driver's drop-off ends it (call the driver to change where she gets off)"
        case (.noShow, .boarded):
            return "the driver tapped On board: a rider who boarded is not a no-show; if the tap was a mistake, the driver undoes it"
        default:
            return nil
        }
    }
}
