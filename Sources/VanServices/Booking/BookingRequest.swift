import Foundation
import VanDomain

/// What a rider asks to book, as typed: the API's JSON body and the web app's form each
/// translate into this, and ``BookingRules/check(_:netID:places:timeZone:now:)`` checks it
/// and builds the rides. Field names in errors are the API's (`pickup_at`, `repeat.until`, …).
public struct BookingRequest: Sendable, Hashable {
    /// A weekly series: the same local time on `weekdays` through `until`.
    public struct Repeat: Sendable, Hashable {
        /// Weekday names (`mon`, `Tuesday`, …).
        public var weekdays: [String]
        /// The last local date, `YYYY-MM-DD`.
        public var until: String

        /// A series rule as sent.
        public init(weekdays: [String], until: String) {
            self.weekdays = weekdays
            self.until = until
        }
    }

    /// The way back, booked with the ride there (both or neither): picked up at `pickupAt` from
    /// the ride's drop-off, or from `pickup` when given, and taken back to the ride's pickup. Or,
    /// with `willCall`, no time: she calls when she is ready (``WillCall``).
    public struct Return: Sendable, Hashable {
        /// The way back's pickup time, as `pickupAt` is written; nil for a will-call.
        public var pickupAt: String?
        /// Where the way back starts, when not where the ride there ends.
        public var pickup: PlaceMatcher.Input?
        /// "I'll call when I'm ready": booked when she says so, not now.
        public var willCall: Bool

        /// A way back as sent.
        public init(pickupAt: String? = nil, pickup: PlaceMatcher.Input? = nil, willCall: Bool = false) {
            self.pickupAt = pickupAt
            self.pickup = pickup
            self.willCall = willCall
        }
    }

    /// Scheduled (give `pickupAt` or `arriveBy`) or on demand (picked up after the policy's lead).
    public var kind: RideKind
    /// The pickup time: ISO 8601 with an offset, or a local `2026-11-30T15:00` in the service zone.
    public var pickupAt: String?
    /// Instead of `pickupAt`: the time to arrive at the drop-off by.
    public var arriveBy: String?
    /// Where to pick up.
    public var pickup: PlaceMatcher.Input
    /// Where to drop off.
    public var dropoff: PlaceMatcher.Input
    /// Needs a wheelchair position.
    public var needsWheelchair: Bool
    /// Companions riding along.
    public var companions: Int
    /// A note for the driver (trimmed; empty is none).
    public var note: String?
    /// A weekly series, for a scheduled ride.
    public var repeats: Repeat?
    /// The way back, booked with it.
    public var returnTrip: Return?

    /// A request; everything but the two ends is optional.
    public init(
        kind: RideKind = .scheduled, pickupAt: String? = nil, arriveBy: String? = nil, pickup: PlaceMatcher.Input,
        dropoff: PlaceMatcher.Input, needsWheelchair: Bool = false, companions: Int = 0, note: String? = nil,
        repeats: Repeat? = nil, returnTrip: Return? = nil
    ) {
        self.kind = kind
        self.pickupAt = pickupAt
        self.arriveBy = arriveBy
        self.pickup = pickup
        self.dropoff = dropoff
        self.needsWheelchair = needsWheelchair
        self.companions = companions
        self.note = note
        self.repeats = repeats
        self.returnTrip = returnTrip
    }
}

/// A request that passed ``BookingRules``: the rides to book (one, or every occurrence of a
/// weekly series), each with its id, status and whole-second time.
public struct CheckedBooking: Sendable, Hashable {
    /// The rides, in time order.
    public let rides: [NewRide]
    /// The series' id, for a weekly series.
    public let seriesID: UUID?
    /// Where a will-call way back starts, when the ride asked for one: it is recorded with the
    /// ride (``BookingService/bookSeries(_:now:bookedBy:overrideSuspension:willCall:)``), and booked when she calls.
    public var willCall: RideEndpoint? = nil

    /// The ride there and the way back, when a way back was asked for.
    public var trip: (there: NewRide, back: NewRide)? {
        guard rides.count == 2, rides[1].returnOf == rides[0].id else { return nil }
        return (rides[0], rides[1])
    }

    /// The time asked for each ride (pickup, or arrival for arrive-by).
    public var requested: [Date] { rides.map(\.pickupAt) }
}
