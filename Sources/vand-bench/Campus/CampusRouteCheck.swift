import Foundation
import VanDomain
import VanScheduler

/// Checks stored routes from the rules alone, not with the engine: at every stop the riders
/// aboard fit the van's seats and wheelchair positions; each promised stop (the pickup, or the
/// drop-off of an arrive-by ride) lies inside its window, and that window is the one the rider
/// asked for (or took); each ride lasts at most its `max_ride_seconds`; and the van can drive
/// the route: each stop comes no sooner than the one before plus its boarding or alighting
/// and the drive between them (a second of rounding allowed per leg).
enum CampusRouteCheck {
    /// Rounding of planned times to whole seconds.
    static let slack: TimeInterval = 1.5

    /// Every violation found, in words; empty when the routes keep every rule.
    /// `promised` is what each booked ride was promised (kind and asked time), `windowWidth` the model's window.
    static func problems(_ routes: CampusRoutes, promised: [UUID: (kind: RidePromise.Kind, asked: Date)], windowWidth: TimeInterval) -> [String] {
        var problems: [String] = []
        let vans = Dictionary(uniqueKeysWithValues: routes.vans.map { ($0.id, $0) })
        if routes.rides.count != promised.count {
            problems.append("\(routes.rides.count) rides hold vans, but \(promised.count) were booked")
        }
        for ride in routes.rides {
            let name = ride.id.uuidString.prefix(8)
            if ride.dropoffAt <= ride.pickupAt { problems.append("ride \(name): drop-off not after pickup") }
            let promisedStop = ride.promise.kind == .pickup ? ride.pickupAt : ride.dropoffAt
            if promisedStop < ride.promise.window.start || promisedStop > ride.promise.window.end {
                problems.append("ride \(name): promised stop at \(promisedStop) outside its window \(ride.promise.window)")
            }
            if let wanted = promised[ride.id] {
                let window = RidePromise(kind: wanted.kind, asked: wanted.asked, width: windowWidth)
                if window != ride.promise { problems.append("ride \(name): promised \(ride.promise), asked for \(window)") }
            } else {
                problems.append("ride \(name) holds a van but was not booked")
            }
            if ride.dropoffAt.timeIntervalSince(ride.pickupAt) > Double(ride.maxRideSeconds) {
                problems.append("ride \(name): lasts \(Int(ride.dropoffAt.timeIntervalSince(ride.pickupAt))) s, limit \(ride.maxRideSeconds) s")
            }
        }
        for (vanID, stops) in routes.routes {
            guard let van = vans[vanID] else { problems.append("van \(vanID) is unknown"); continue }
            var seats = 0, wheelchairs = 0
            for (index, stop) in stops.enumerated() {
                let sign = stop.pickup ? 1 : -1
                seats += sign * Ride.seats(wheelchair: stop.ride.wheelchair, companions: stop.ride.companions)
                wheelchairs += sign * (stop.ride.wheelchair ? 1 : 0)
                if seats > van.seats || wheelchairs > van.wheelchairPositions {
                    problems.append(
                        "van \(vanID) at \(stop.at): \(seats) seats and \(wheelchairs) wheelchairs aboard, it has \(van.seats) and \(van.wheelchairPositions)"
                    )
                }
                if index > 0 {
                    let previous = stops[index - 1]
                    let earliest = previous.at.addingTimeInterval(
                        previous.service(routes.estimator) + routes.estimator.deadhead(from: previous.place, to: stop.place))
                    if stop.at.addingTimeInterval(slack) < earliest {
                        problems.append("van \(vanID) at \(stop.at): cannot get there from the stop at \(previous.at) before \(earliest)")
                    }
                }
            }
            if seats != 0 || wheelchairs != 0 { problems.append("van \(vanID) ends its route with riders aboard") }
        }
        return problems
    }
}
