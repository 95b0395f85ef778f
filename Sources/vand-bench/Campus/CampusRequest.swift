import Foundation
import VanDomain

/// One rider's request on the campus day, as the generator makes it: who asks, when they ask,
/// for what time, between which of the demo places, and what they need aboard.
struct CampusRequest: Hashable, Sendable {
    /// How far ahead the rider asked.
    enum Booking: String, Hashable, Sendable, CaseIterable {
        /// The day before.
        case dayBefore
        /// The same day, an hour or more ahead.
        case sameDay
        /// A ride now: the pickup is the on-demand lead after the request.
        case onDemand
    }

    /// Position in generation order (ties in `arrival` keep this order).
    var index: Int
    /// Which rider (riders `0..<riders` of the day; some ride more than once).
    var rider: Int
    /// When the rider asks: the clock the booking runs at.
    var arrival: Date
    /// The time asked for: the pickup, or the arrival at the drop-off for `.arriveBy`.
    var asked: Date
    /// Pick up at `asked`, or arrive by it.
    var promise: RidePromise.Kind
    /// How far ahead the rider asked.
    var booking: Booking
    /// Index of the pickup in ``DemoData/places``.
    var from: Int
    /// Index of the drop-off in ``DemoData/places``.
    var to: Int
    /// Needs a wheelchair position.
    var wheelchair: Bool
    /// Companions riding along (0–2).
    var companions: Int
}
