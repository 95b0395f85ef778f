import Foundation
import VanDomain
import VanServices
import VanScheduler

/// `POST /v1/rides`: what the rider's app sends.
struct BookRideRequest: Decodable, Sendable {
    /// "scheduled" (give pickup_at) or "on_demand" (pickup in 5 minutes).
    var kind: RideKind = .scheduled
    var pickupAt: String?
    /// Instead of `pickup_at`: the time to arrive at the drop-off by.
    var arriveBy: String?
    var pickup: EndpointInput
    var dropoff: EndpointInput
    var needsWheelchair = false
    var companions = 0
    var note: String?
    var `repeat`: RepeatInput?
    /// The way back, booked with it (both or neither).
    var `return`: ReturnInput?

    struct RepeatInput: Decodable, Sendable {
        var weekdays: [String]
        var until: String
    }

    /// `{"pickup_at": …, "pickup": …}` or `{"will_call": true, "pickup": …}`: when (or "when I
    /// call") and, unless where the ride ends, where the way back starts. The booking rules say
    /// which is missing or too much.
    struct ReturnInput: Decodable, Sendable {
        var pickupAt: String?
        var pickup: EndpointInput?
        var willCall: Bool

        enum CodingKeys: String, CodingKey { case pickupAt = "pickup_at", pickup, willCall = "will_call" }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            pickupAt = try c.member(String.self, .pickupAt)
            pickup = try c.member(EndpointInput.self, .pickup)
            willCall = try c.member(Bool.self, .willCall) ?? false
        }
    }

    enum CodingKeys: String, CodingKey {
        case kind, pickupAt = "pickup_at", arriveBy = "arrive_by", pickup, dropoff, needsWheelchair = "needs_wheelchair", companions, note, `repeat`
        case `return`
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.member(RideKind.self, .kind) ?? .scheduled
        pickupAt = try c.member(String.self, .pickupAt)
        arriveBy = try c.member(String.self, .arriveBy)
        pickup = try c.decode(EndpointInput.self, forKey: .pickup)
        dropoff = try c.decode(EndpointInput.self, forKey: .dropoff)
        needsWheelchair = try c.member(Bool.self, .needsWheelchair) ?? false
        companions = try c.member(Int.self, .companions) ?? 0
        note = try c.member(String.self, .note)
        `repeat` = try c.member(RepeatInput.self, .repeat)
        `return` = try c.member(ReturnInput.self, .return)
    }

    /// The request as the booking rules take it.
    var request: BookingRequest {
        BookingRequest(
            kind: kind, pickupAt: pickupAt, arriveBy: arriveBy, pickup: pickup.value, dropoff: dropoff.value,
            needsWheelchair: needsWheelchair, companions: companions, note: note,
            repeats: `repeat`.map { BookingRequest.Repeat(weekdays: $0.weekdays, until: $0.until) },
            returnTrip: `return`.map { BookingRequest.Return(pickupAt: $0.pickupAt, pickup: $0.pickup?.value, willCall: $0.willCall) })
    }
}

/// One end of a trip: a place name as a plain string ("SCL"), or an object with
/// any of `place`, `address`, `lat`, `lon`.
struct EndpointInput: Decodable, Sendable {
    var value: PlaceMatcher.Input

    init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            value = PlaceMatcher.Input(place: name)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        value = PlaceMatcher.Input(
            place: try c.member(String.self, .place),
            address: try c.member(String.self, .address),
            lat: try c.member(Double.self, .lat),
            lon: try c.member(Double.self, .lon)
        )
    }

    enum CodingKeys: String, CodingKey { case place, address, lat, lon }
}

/// A page of rides.
struct RideList: Encodable, Sendable {
    let rides: [RideView]
    let next: String?
}

/// The answer to a standing series: what was booked and what conflicts.
struct SeriesView: Encodable, Sendable {
    struct Conflict: Encodable, Sendable {
        let requestedPickupAt: String
        let reason: String
        let detail: String
        let suggestions: [SuggestionView]
        /// The rider's own ride in the way (its path), for `overlaps_own_ride`.
        let ride: String?
        enum CodingKeys: String, CodingKey { case requestedPickupAt = "requested_pickup_at", reason, detail, suggestions, ride }
    }

    let seriesID: String
    let booked: [RideView]
    let conflicts: [Conflict]
    enum CodingKeys: String, CodingKey { case seriesID = "series_id", booked, conflicts }
}

/// A time the scheduler offers instead. Send `pickup_at` (or `arrive_by`) back exactly as
/// given to book it; `planned_pickup_at` and `estimated_dropoff_at` say what the rider would get.
struct SuggestionView: Encodable, Sendable {
    let pickupAt: String?
    let arriveBy: String?
    let plannedPickupAt: String
    let estimatedDropoffAt: String
    let withinAdaWindow: Bool
    let minutesFromRequested: Int

    enum CodingKeys: String, CodingKey {
        case pickupAt = "pickup_at", arriveBy = "arrive_by", plannedPickupAt = "planned_pickup_at"
        case estimatedDropoffAt = "estimated_dropoff_at"
        case withinAdaWindow = "within_ada_window", minutesFromRequested = "minutes_from_requested"
    }

    init(_ suggestion: Suggestion, clock: ServiceTime) {
        pickupAt = suggestion.promise == .pickup ? clock.format(suggestion.asked) : nil
        arriveBy = suggestion.promise == .arriveBy ? clock.format(suggestion.asked) : nil
        plannedPickupAt = clock.format(suggestion.pickupAt)
        estimatedDropoffAt = clock.format(suggestion.dropoffAt)
        withinAdaWindow = suggestion.withinADAWindow
        minutesFromRequested = suggestion.minutesFromRequested
    }

    var json: JSONValue {
        var object: [String: JSONValue] = [
            "planned_pickup_at": .string(plannedPickupAt), "estimated_dropoff_at": .string(estimatedDropoffAt),
            "within_ada_window": .bool(withinAdaWindow), "minutes_from_requested": .number(Double(minutesFromRequested)),
        ]
        if let pickupAt { object["pickup_at"] = .string(pickupAt) }
        if let arriveBy { object["arrive_by"] = .string(arriveBy) }
        return .object(object)
    }
}
