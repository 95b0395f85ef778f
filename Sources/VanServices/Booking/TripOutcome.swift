import Foundation
import VanDomain
import VanScheduler

/// What booking a ride there and its way back came to: both booked, or neither.
public enum TripOutcome: Sendable, Hashable {
    /// Which leg of a trip.
    public enum Leg: String, Sendable, Hashable {
        /// The ride there.
        case there
        /// The way back.
        case back = "return"
    }

    /// Both rides are in the database, each holding its van; the way back names the ride there.
    case booked(there: Ride, back: Ride)
    /// Nothing is booked: `leg` did not fit, for the reason in `outcome` (a refusal with the
    /// nearest times for that leg, or a ride of hers in the way).
    case refused(leg: Leg, outcome: BookingOutcome)
    /// Nothing is booked: the way back was asked for before the ride there may end (its promised
    /// arrival at the latest). `earliest` is that end; `suggestion` the nearest time from then that fits.
    case backTooSoon(earliest: Date, suggestion: Suggestion?)

    /// The refusal code: the leg's (``BookingOutcome/refusalCode``), or `return_too_soon`; nil when booked.
    public var refusalCode: String? {
        switch self {
        case .booked: nil
        case .refused(_, let outcome): outcome.refusalCode
        case .backTooSoon: "return_too_soon"
        }
    }

    /// What the rider reads when nothing was booked; nil when booked.
    public func sentence(clock: ServiceTime) -> String? {
        switch self {
        case .booked:
            return nil
        case .refused(.there, let outcome):
            return "Nothing is booked: the ride there does not fit. " + (outcome.sentence(clock: clock) ?? "")
        case .refused(.back, let outcome):
            return "Nothing is booked: the ride there fits, but the way back does not. " + (outcome.sentence(clock: clock) ?? "")
        case .backTooSoon(let earliest, let suggestion):
            let then =
                suggestion.map { " \(clock.text($0.asked, .clockTime)) works." }
                ?? " Nothing is free for the way back within the hour after that."
            return "Nothing is booked: the way back can start at \(clock.text(earliest, .clockTime)) at the earliest, "
                + "when the ride there may still be arriving. Choose a time from then." + then
        }
    }
}
