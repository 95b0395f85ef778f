import Foundation
import VanDomain
import VanScheduler

/// One stop of the van's run as the driver sees it: where, who (first name and initial, phone —
/// only for this run), what the rider needs, what was promised and planned, and what happened.
public struct RunStop: Sendable, Hashable {
    /// The ride.
    public let rideID: UUID
    /// The ride's reference, as the rider and dispatcher say it.
    public let ref: RideRef
    /// The ride's status now.
    public let rideStatus: RideStatus
    /// Pickup or drop-off.
    public let stop: StopKind
    /// The place's name, when the stop is a known place.
    public let placeName: String?
    /// The place's short name (its first alias, else its name, else the address).
    public let placeShort: String?
    /// The address the rider gave, when not a known place.
    public let address: String?
    /// Where the stop is, when known.
    public let coordinate: Coordinate?
    /// The rider's first name and initial, e.g. "Jamie D.".
    public let riderName: String
    /// The rider's phone, for the tap-to-call.
    public let riderPhone: PhoneNumber?
    /// Whether the rider uses a wheelchair.
    public let wheelchair: Bool
    /// Companions travelling with the rider.
    public let companions: Int
    /// The rider's note.
    public let note: String?
    /// What the rider was promised.
    public let promise: RidePromise
    /// The planned time of this stop (the planner's).
    public let plannedAt: Date
    /// When the van tapped "arrived" here.
    public let arrivedAt: Date?
    /// When the stop ended (boarded, no-show or dropped off).
    public let departedAt: Date?
    /// How the stop ended, once it did.
    public let outcome: TapAction?
    /// From when a no-show may be tapped (pickups the van reached inside the window, still open).
    public let noShowAllowedFrom: Date?
    /// The last tap standing at this stop, with its undo deadline.
    public let lastTap: StopTap?
    /// The taps the driver is offered next here, in the order a page shows them: those the ride
    /// policy allows now, and a no-show waiting out its wait (from ``noShowAllowedFrom``).
    public let nextActions: [TapAction]
    /// The ride policy's answer to a no-show here, once the van has arrived at this open pickup:
    /// nil (allowed now), ``RidePolicy/TapRefusal/noShowTooEarly(allowedFrom:)`` (offered, once the
    /// wait is over) or ``RidePolicy/TapRefusal/arrivedAfterWindow(windowEnd:)`` (never).
    public let noShowRefusal: RidePolicy.TapRefusal?

    /// Creates a value.
    public init(
        rideID: UUID, ref: RideRef, rideStatus: RideStatus, stop: StopKind, placeName: String?, placeShort: String?, address: String?,
        coordinate: Coordinate?, riderName: String, riderPhone: PhoneNumber?, wheelchair: Bool, companions: Int, note: String?,
        promise: RidePromise, plannedAt: Date, arrivedAt: Date?, departedAt: Date?, outcome: TapAction?,
        noShowAllowedFrom: Date?, lastTap: StopTap?, nextActions: [TapAction], noShowRefusal: RidePolicy.TapRefusal? = nil
    ) {
        self.rideID = rideID
        self.ref = ref
        self.rideStatus = rideStatus
        self.stop = stop
        self.placeName = placeName
        self.placeShort = placeShort
        self.address = address
        self.coordinate = coordinate
        self.riderName = riderName
        self.riderPhone = riderPhone
        self.wheelchair = wheelchair
        self.companions = companions
        self.note = note
        self.promise = promise
        self.plannedAt = plannedAt
        self.arrivedAt = arrivedAt
        self.departedAt = departedAt
        self.outcome = outcome
        self.noShowAllowedFrom = noShowAllowedFrom
        self.lastTap = lastTap
        self.nextActions = nextActions
        self.noShowRefusal = noShowRefusal
    }

    /// Whether nothing more happens at this stop: it has an outcome, or the ride ended otherwise.
    public var isDone: Bool { outcome != nil || rideStatus.isFinal }

    /// The name to show for the place: its name, else the address.
    public var displayPlace: String { placeName ?? address ?? "an unnamed place" }

    /// "Jamie D." from "Jamie Doe"; the first name alone for one word; "Rider" without a name.
    public static func shortName(_ name: String?) -> String {
        let words = (name ?? "").split(whereSeparator: \.isWhitespace)
        guard let first = words.first else { return "Rider" }
        guard words.count > 1, let initial = words.last?.first else { return String(first) }
        return "\(first) \(initial.uppercased())."
    }
}

/// The van's run for today: the open shift and every stop of the van's rides today in route
/// order (planned time; at the same time, drop-offs first), done ones included.
public struct DriverRun: Sendable, Hashable {
    /// The driver's open shift.
    public let shift: Shift
    /// The service day (today in the service time zone).
    public let day: LocalDate
    /// Every stop, in route order.
    public let stops: [RunStop]
    /// When to leave for the next stop, when the van should wait empty first: the next stop is a
    /// pickup planned later than the van could be there, and nobody is aboard (the planner has the
    /// van wait before a pickup rather than with riders aboard). Nil: go now.
    public var leaveAt: Date?

    /// Creates a value.
    public init(shift: Shift, day: LocalDate, stops: [RunStop], leaveAt: Date? = nil) {
        self.shift = shift
        self.day = day
        self.stops = stops
        self.leaveAt = leaveAt
    }

    /// When to leave for the next stop of `stops` (``leaveAt``): its planned time less the model's
    /// drive from the last stop done, if nobody is aboard and that is after `now`.
    public static func leaveAt(_ stops: [RunStop], estimator: TripEstimator, now: Date) -> Date? {
        guard let next = stops.first(where: { !$0.isDone }), next.stop == .pickup, next.arrivedAt == nil else { return nil }
        let boarded = Set(stops.filter { $0.stop == .pickup && $0.outcome == .boarded }.map(\.rideID))
        let aboard = stops.contains { $0.stop == .dropoff && !$0.isDone && boarded.contains($0.rideID) }
        guard !aboard else { return nil }
        let from = stops.filter { $0.departedAt != nil }.max { $0.departedAt! < $1.departedAt! }?.coordinate
        let leave = next.plannedAt.addingTimeInterval(-estimator.deadhead(from: from, to: next.coordinate))
        return leave > now ? leave : nil
    }

    /// The stops still to do, in route order.
    public var remaining: [RunStop] { stops.filter { !$0.isDone } }

    /// The next stop to do.
    public var next: RunStop? { stops.first { !$0.isDone } }
}
