import Foundation
import VanDomain
import VanScheduler

/// What a booking attempt came to.
public enum BookingOutcome: Sendable, Hashable {
    /// The ride is in the database, holding its van.
    case booked(Ride)
    /// The time does not work; the feasibility says why and what would, and the
    /// sentence says it to a person ("The van is occupied at 4:30 PM. Does 4:45 PM work?").
    case refused(Feasibility, sentence: String)
    /// The rider already holds this ride, whose promised times overlap the asked one's
    /// (``RidePromise/riderSpan(maxRideTime:)``): nobody rides two vans at once.
    case overlaps(Ride)

    /// Why nothing was booked, as a stable code (``Infeasibility/code``, or `overlaps_own_ride`); nil when booked.
    public var refusalCode: String? {
        switch self {
        case .booked: nil
        case .refused(let feasibility, _): feasibility.refusalCode
        case .overlaps: Self.overlapsCode
        }
    }

    /// The refusal code of ``overlaps(_:)``.
    public static let overlapsCode = "overlaps_own_ride"

    /// What the rider reads of a refusal: the scheduler's sentence ("The van is occupied at
    /// 4:30 PM. Does 4:45 PM work?"), or which of her rides is in the way; nil when booked.
    public func sentence(clock: ServiceTime) -> String? {
        switch self {
        case .booked: return nil
        case .refused(_, let sentence): return sentence
        case .overlaps(let other):
            let until = other.promise.riderSpan(maxRideTime: other.maxRideTime).end
            return "You already have a ride then: \(other.ref.rawValue), \(clock.text(other.pickupAt, .dayAtTime)) from "
                + "\(other.pickup.displayName) to \(other.dropoff.displayName), which may last until \(clock.text(until, .clockTime)). "
                + "Nobody can ride two vans at once: choose a time after it, or cancel that ride first."
        }
    }
}
