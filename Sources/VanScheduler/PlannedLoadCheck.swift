import Foundation
import VanDomain

/// The loads of vans as the database's route check (`vand_check_route`) counts them from planned
/// times: for a ride written, every ride on its van whose planned span overlaps it, their pickups
/// and drop-offs summed in time order (at one instant, by seats, drop-offs first, then by ride id),
/// at each instant from the ride's pickup to before its drop-off.
enum PlannedLoadCheck {
    /// The rides of `written` that check would refuse as overloading their van.
    static func overloaded(_ rides: [BookedRide], written: Set<UUID>, vans: [Van]) -> [UUID] {
        guard !written.isEmpty else { return [] }
        let vanByID = Dictionary(uniqueKeysWithValues: vans.map { ($0.id, $0) })
        let byVan = Dictionary(grouping: rides, by: \.vanID)
        var failing: [UUID] = []
        for ride in rides where written.contains(ride.id) {
            guard let van = vanByID[ride.vanID] else { continue }
            struct Event { let at: Date, seats: Int, chairs: Int, id: String }
            var events: [Event] = []
            for other in byVan[ride.vanID] ?? [] where other.pickupAt < ride.dropoffAt && other.dropoffAt > ride.pickupAt {
                let seats = Ride.seats(wheelchair: other.wheelchair, companions: other.companions), chairs = other.wheelchair ? 1 : 0
                let id = other.id.uuidString
                events.append(Event(at: other.pickupAt, seats: seats, chairs: chairs, id: id))
                events.append(Event(at: other.dropoffAt, seats: -seats, chairs: -chairs, id: id))
            }
            events.sort { ($0.at, $0.seats, $0.id) < ($1.at, $1.seats, $1.id) }
            var seats = 0, chairs = 0, worstSeats = 0, worstChairs = 0
            for event in events {
                seats += event.seats
                chairs += event.chairs
                if event.at >= ride.pickupAt && event.at < ride.dropoffAt {
                    worstSeats = max(worstSeats, seats)
                    worstChairs = max(worstChairs, chairs)
                }
            }
            if worstSeats > van.seats || worstChairs > van.wheelchairPositions { failing.append(ride.id) }
        }
        return failing
    }
}
