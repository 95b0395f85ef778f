import Foundation
import VanDomain

extension BookingRules {
    /// Checks the way back asked with a ride (`return.*` fields): a time, after the ride there
    /// is asked for and within the horizon, and a place to start from that is not where it goes
    /// (the ride there's pickup). A weekly series books its way back as a series of its own.
    /// Whether the van can take her back then is the booking's question, with the ride there held.
    /// A will-call (`will_call`) has no time: only its place is checked, and the time is nil.
    func checkReturn(
        _ way: BookingRequest.Return, request: BookingRequest, there: (at: Date, pickup: RideEndpoint, dropoff: RideEndpoint),
        matcher: PlaceMatcher, clock: ServiceTime, now: Date
    ) throws(ValidationError) -> (pickupAt: Date?, pickup: RideEndpoint) {
        if request.repeats != nil {
            throw ValidationError(field: "return", reason: "a weekly series cannot carry a way back; book the way back as a series of its own")
        }
        let from = try way.pickup.map { input throws(ValidationError) in try matcher.resolve(input, field: "return.pickup") } ?? there.dropoff
        if Self.samePlace(from, there.pickup) {
            throw ValidationError(field: "return.pickup", reason: "is where the way back goes; give where she will be")
        }
        switch (way.pickupAt, way.willCall) {
        case (_?, true):
            throw ValidationError(field: "return.will_call", reason: "give return.pickup_at or return.will_call, not both")
        case (nil, true):
            return (nil, from)
        case (nil, false):
            throw ValidationError(
                field: "return.pickup_at", reason: "is required: when to pick her up for the way back (or send will_call: true to call when ready)")
        case (let text?, false):
            return (try timedReturn(text, there: there, clock: clock, now: now), from)
        }
    }

    /// The way back's pickup time: after the ride there is asked for, and within the horizon.
    private func timedReturn(
        _ text: String, there: (at: Date, pickup: RideEndpoint, dropoff: RideEndpoint), clock: ServiceTime, now: Date
    ) throws(ValidationError) -> Date {
        var at = try clock.parse(text, field: "return.pickup_at")
        at = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.up))
        guard at > there.at else {
            throw ValidationError(
                field: "return.pickup_at",
                reason: "must be after the ride there (\(clock.text(there.at, .dayAtTime))); the way back starts once she has arrived")
        }
        try policy.checkPickupTime(at, now: now, field: "return.pickup_at")
        return at
    }
}
