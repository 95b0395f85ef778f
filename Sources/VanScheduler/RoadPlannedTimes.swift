import Foundation
import VanDomain

/// Planned times that say a re-planned route in its own order. A driver's page and every reader
/// of a route take a van's stops in the order of their planned times, and the database refuses a
/// planned time outside its ride's promise; so a ride that can no longer be kept keeps the planned
/// times it had (fixed), and every other stop gets the time nearest its projected one that comes
/// after the stop before it and before the next fixed one, inside its ride's window and ride-time
/// limit. A route that cannot be said so has no planned times (nil): it is not written. The pickup
/// a van stands at is served first whatever its planned time, and takes no part in the order.
enum RoadPlannedTimes {
    /// Planned times for the requests on `route` not `fixed`, by request; `projected` are the
    /// route's service starts (engine seconds). Aboard riders keep their planned pickups; an
    /// arrive-by rider's pickup stays where it was when the order and her ride-time limit allow.
    static func assign(_ route: VehicleRoute, projected: [Double], fixed: (Int) -> Bool, day: RoadDay) -> [Int: PlannedStops]? {
        assign(route, projected: projected, fixed: fixed, day: day, holdingArriveBy: true)
            ?? assign(route, projected: projected, fixed: fixed, day: day, holdingArriveBy: false)
    }

    /// With `holdingArriveBy`, arrive-by pickups aim at their old planned times, else at the projected ones.
    private static func assign(
        _ route: VehicleRoute, projected: [Double], fixed: (Int) -> Bool, day: RoadDay,
        holdingArriveBy: Bool
    ) -> [Int: PlannedStops]? {
        struct Slot {
            var request: Int
            var pickup: Bool
            var fixed: Double?
            var lo: Double
            var hi: Double
            var projected: Double
        }
        let origin = day.origin.timeIntervalSinceReferenceDate
        var slots: [Slot] = []
        var planned: [Int: (pickup: Double?, dropoff: Double?)] = [:]
        for (position, stop) in route.stops.enumerated() {
            let road = day.rides[stop.request], ride = road.ride
            let pickup = stop.kind == .pickup
            if pickup && road.isAboard { continue }  // done
            if pickup && road.progress == .arrived {
                // Being served: planned where it is served, inside its window.
                guard !fixed(stop.request) else { continue }
                var time = (origin + projected[position]).rounded()
                if ride.promise.kind == .pickup {
                    time = min(
                        max(time, ride.promise.window.start.timeIntervalSinceReferenceDate), ride.promise.window.end.timeIntervalSinceReferenceDate)
                }
                planned[stop.request, default: (nil, nil)].pickup = time
                continue
            }
            let old = pickup ? ride.pickupAt : max(ride.dropoffAt, ride.pickupAt)
            let promised = (pickup && ride.promise.kind == .pickup) || (!pickup && ride.promise.kind == .arriveBy)
            // An arrive-by rider's planned pickup is when the driver may take her (she was told it):
            // it stays where it was unless the order needs it later, so a passing delay does not
            // push it, and the slack before her arrival, later for good.
            let target =
                holdingArriveBy && pickup && ride.promise.kind == .arriveBy
                ? old.timeIntervalSinceReferenceDate : (origin + projected[position]).rounded()
            slots.append(
                Slot(
                    request: stop.request, pickup: pickup, fixed: fixed(stop.request) ? old.timeIntervalSinceReferenceDate : nil,
                    lo: promised ? ride.promise.window.start.timeIntervalSinceReferenceDate : -.infinity,
                    hi: promised ? ride.promise.window.end.timeIntervalSinceReferenceDate : .infinity,
                    projected: target))
        }
        // Latest each stop may be planned: its window, and a second before the next stop's latest.
        var upper = [Double](repeating: .infinity, count: slots.count)
        var next = Double.infinity
        for index in slots.indices.reversed() {
            if let fixed = slots[index].fixed {
                upper[index] = fixed
                next = fixed
            } else {
                upper[index] = min(slots[index].hi, next - 1)
                next = upper[index]
            }
        }
        var previous = -Double.infinity, previousFixed = true
        for (index, slot) in slots.enumerated() {
            let time: Double
            if let fixed = slot.fixed {
                guard fixed >= previous + (previousFixed ? 0 : 1) else { return nil }
                time = fixed
            } else {
                let lowest = max(slot.lo, previous + 1)
                time = max(lowest, min(slot.projected, upper[index]))
                guard time <= upper[index] else { return nil }
                if !slot.pickup {
                    let ride = day.rides[slot.request].ride
                    let pickup = planned[slot.request]?.pickup ?? ride.pickupAt.timeIntervalSinceReferenceDate
                    // A millisecond under the limit: the database keeps microseconds.
                    guard time - pickup <= ride.maxRideTime - 0.001 else { return nil }
                }
            }
            if slot.fixed == nil {
                if slot.pickup {
                    planned[slot.request, default: (nil, nil)].pickup = time
                } else {
                    planned[slot.request, default: (nil, nil)].dropoff = time
                }
            }
            previous = time
            previousFixed = slot.fixed != nil
        }
        var result: [Int: PlannedStops] = [:]
        for (request, times) in planned {
            let ride = day.rides[request].ride
            guard let dropoff = times.dropoff else { continue }  // a ride's two stops are on one route
            let pickup = times.pickup.map { Date(timeIntervalSinceReferenceDate: $0) } ?? ride.pickupAt
            result[request] = PlannedStops(pickupAt: pickup, dropoffAt: Date(timeIntervalSinceReferenceDate: dropoff))
        }
        return result
    }
}
