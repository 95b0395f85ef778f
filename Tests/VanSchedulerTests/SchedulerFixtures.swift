import Foundation
import VanTestSupport
@testable import VanScheduler
import VanDomain

/// Builders for the scheduler tests. With unknown (nil) coordinates an ambulatory trip takes
/// 2 + 15 + 1 = 18 min, a wheelchair trip 5 + 15 + 3 = 23 min, and deadhead 10 min.
enum Fixture {
    static let hours = ServiceHours.wheelsDefault(timeZone: newYork)
    static let scheduler = Scheduler(hours: hours)
    /// One rider at a time and exact promises (no window), on the old five-minute grid: with
    /// unknown ends a ride takes the van for 28 minutes either side of its pickup (2 boarding +
    /// 15 driving + 1 alighting + 10 to the next unknown place), so times are easy to work out.
    static let solo: Scheduler = {
        var scheduler = Scheduler(hours: hours)
        scheduler.windowWidth = 0
        scheduler.step = 300
        return scheduler
    }()

    /// A van with one seat (and one wheelchair position unless told otherwise), for `solo`.
    static func soloVan(_ id: Int64, wheelchair: Int = 1) -> Van {
        try! Van(id: id, name: "Van \(id)", seats: 1, wheelchairPositions: wheelchair)
    }
    static let thanksgiving = try! LocalDate("2026-11-26")

    /// A van; `wheelchair` positions default to 1.
    static func van(_ id: Int64, wheelchair: Int = 1, active: Bool = true) -> Van {
        try! Van(id: id, name: "Van \(id)", seats: 6, wheelchairPositions: wheelchair, active: active)
    }

    /// A stable UUID numbered `n`.
    static func uuid(_ n: Int) -> UUID {
        let digits = String(n)
        return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
    }

    /// A booked ride `n` on `van` from `start` to `end`.
    static func ride(
        _ n: Int, van: Int64, _ start: Date, _ end: Date, from: Coordinate? = nil, to: Coordinate? = nil
    ) -> BookedRide {
        BookedRide(id: uuid(n), vanID: van, pickupAt: start, dropoffAt: end, pickup: from, dropoff: to)
    }

    /// A request with unknown ends at `time`.
    static func request(
        _ time: Date, wheelchair: Bool = false, excluding: UUID? = nil, van: Int64? = nil,
        notBefore: Date? = nil, notAfter: Date? = nil
    ) -> RideRequest {
        RideRequest(
            pickup: nil, dropoff: nil, wheelchair: wheelchair, pickupAt: time,
            excludingRideID: excluding, vanID: van, notBefore: notBefore, notAfter: notAfter
        )
    }

    /// A point `meters` due north of `origin` (so the haversine distance is exactly `meters`).
    static func north(of origin: Coordinate, meters: Double) -> Coordinate {
        let degrees = meters / Coordinate.earthRadius * 180 / .pi
        return try! Coordinate(latitude: origin.latitude + degrees, longitude: origin.longitude)
    }

    static let sss = try! Coordinate(latitude: 41.3110, longitude: -72.9254)
    static let davenport = try! Coordinate(latitude: 41.3163, longitude: -72.9223)

    static func minutes(_ value: Double) -> TimeInterval { value * 60 }
}
