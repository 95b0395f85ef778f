import Foundation
import VanDomain

/// A ride as people outside read it: the rider API's JSON and `vanadmin --json` alike
/// (snake_case keys, times with the service zone's offset, durations in minutes).
public struct RideView: Encodable, Sendable {
    /// Where a ride starts or ends: the matched place, the address and point as given, and the words to show.
    public struct Endpoint: Encodable, Sendable {
        /// The campus place matched, if any.
        public let place: String?
        /// The address as given.
        public let address: String?
        /// Latitude, if known.
        public let lat: Double?
        /// Longitude, if known.
        public let lon: Double?
        /// What to show a person.
        public let display: String

        /// The view of `e`.
        public init(_ e: RideEndpoint) {
            place = e.placeName
            address = e.address
            lat = e.coordinate?.latitude
            lon = e.coordinate?.longitude
            display = e.displayName
        }
    }

    /// The ride's id, lowercase.

    public let id: String
    /// The reference a rider reads out (`K7M-3QX`).
    public let ref: String
    /// `scheduled` or `on_demand`.
    public let kind: String
    /// `pending`, `approved`, … (``RideStatus``).
    public let status: String
    /// Where the van picks up.
    public let pickup: Endpoint
    /// Where the van drops off.
    public let dropoff: Endpoint
    /// The planned pickup, with the service zone's offset.
    public let pickupAt: String
    /// The planned drop-off, with the service zone's offset.
    public let estimatedDropoffAt: String
    /// The promised window.
    public let promise: PromiseView
    /// The longest the ride may take, in whole minutes.
    public let maxRideMinutes: Int
    /// Whether other riders may share the van (always, on shared routes).
    public let mayShare: Bool
    /// Whether the rider needs a wheelchair position.
    public let needsWheelchair: Bool
    /// Companions riding along (0–2).
    public let companions: Int
    /// The rider's note to the driver.
    public let note: String?
    /// The van's name, once assigned.
    public let van: String?
    /// Why it was rejected or cancelled.
    public let reason: String?
    /// The standing series it belongs to.
    public let seriesID: String?
    /// On a way back booked with its ride there: that ride's id.
    public let returnOf: String?
    /// When it was asked for.
    public let requestedAt: String
    /// When it last changed.
    public let updatedAt: String
    /// Where her van is, from the road: only on her own ride's page, from the ETA lead before her
    /// wait begins until she is on board (absent otherwise).
    public var eta: ETAView?
    /// Its way back, when she will call for it: only on her ride's own page and its booking's answer.
    public var willCall: WillCallView?

    enum CodingKeys: String, CodingKey {
        case id, ref, kind, status, pickup, dropoff, pickupAt = "pickup_at", estimatedDropoffAt = "estimated_dropoff_at"
        case promise, maxRideMinutes = "max_ride_minutes", mayShare = "may_share"
        case needsWheelchair = "needs_wheelchair", companions, note, van, reason, seriesID = "series_id", returnOf = "return_of"
        case requestedAt = "requested_at", updatedAt = "updated_at", eta, willCall = "will_call"
    }

    /// The ride's view, its times written by `clock`.
    public init(_ ride: Ride, clock: ServiceTime) {
        func endpoint(_ e: RideEndpoint) -> Endpoint { Endpoint(e) }
        id = ride.id.uuidString.lowercased()
        ref = ride.ref.rawValue
        kind = ride.kind.rawValue
        status = ride.status.rawValue
        pickup = endpoint(ride.pickup)
        dropoff = endpoint(ride.dropoff)
        pickupAt = clock.format(ride.pickupAt)
        estimatedDropoffAt = clock.format(ride.estimatedDropoffAt)
        promise = PromiseView(ride.promise, clock: clock)
        maxRideMinutes = Int((ride.maxRideTime / 60).rounded(.down))
        mayShare = true
        needsWheelchair = ride.needsWheelchair
        companions = ride.companions
        note = ride.note
        van = ride.vanName
        reason = ride.reason
        seriesID = ride.seriesID?.uuidString.lowercased()
        returnOf = ride.returnOf?.uuidString.lowercased()
        requestedAt = clock.format(ride.requestedAt)
        updatedAt = clock.format(ride.updatedAt)
    }
}

/// A will-call way back as the API shows it (``WillCall``).
public struct WillCallView: Encodable, Sendable {
    /// `open` (waiting for her call), `ready` (she called: the way back is booked) or `closed`.
    public let state: String
    /// Where the way back starts.
    public let pickup: RideView.Endpoint
    /// When she said she was ready, with the zone's offset.
    public let readyAt: String?

    enum CodingKeys: String, CodingKey { case state, pickup, readyAt = "ready_at" }

    /// The view of `call`, its time written by `clock`.
    public init(_ call: WillCall, clock: ServiceTime) {
        state = call.state.rawValue
        pickup = RideView.Endpoint(call.pickup)
        readyAt = call.readyAt.map(clock.format)
    }
}

/// A rider's van on the road as the API shows it (``RiderETA``).
public struct ETAView: Encodable, Sendable, Hashable {
    /// When the van is expected at her pickup ready for her: the later of its arrival and her
    /// window's start (when it arrived, if it is there), with the zone's offset.
    public let at: String
    /// Whole minutes until then (0 when it is there or due).
    public let minutes: Int
    /// Stops the van makes before hers.
    public let stopsBefore: Int
    /// Whether the van is at her pickup.
    public let vanHere: Bool
    /// Whole minutes her promised stop's ETA falls after its window (0: on time).
    public let lateMinutes: Int
    /// The words to show and read out ("The van is about 6 minutes away, 2 stops before yours.").
    public let message: String

    enum CodingKeys: String, CodingKey {
        case at, minutes, stopsBefore = "stops_before", vanHere = "van_here", lateMinutes = "late_minutes", message
    }

    /// The view of `eta`, its time written by `clock`.
    public init(_ eta: RiderETA, clock: ServiceTime) {
        at = clock.format(eta.at)
        minutes = eta.minutes
        stopsBefore = eta.stopsBefore
        vanHere = eta.vanHere
        lateMinutes = eta.lateMinutes
        message = eta.sentence
    }
}

/// What a rider was promised: `pickup` (the van comes within the window) or `arrive_by`
/// (the rider arrives within it).
public struct PromiseView: Encodable, Sendable {
    /// `pickup` or `arrive_by`.
    public let kind: String
    /// The window's start, with the service zone's offset.
    public let windowStart: String
    /// The window's end, with the service zone's offset.
    public let windowEnd: String

    enum CodingKeys: String, CodingKey { case kind, windowStart = "window_start", windowEnd = "window_end" }

    /// The promise's view, its times written by `clock`.
    public init(_ promise: RidePromise, clock: ServiceTime) {
        kind = promise.kind.rawValue
        windowStart = clock.format(promise.window.start)
        windowEnd = clock.format(promise.window.end)
    }
}
