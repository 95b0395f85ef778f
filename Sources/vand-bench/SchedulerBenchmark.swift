import Foundation
import VanDomain
import VanScheduler

/// `vand-bench scheduler`: the time of one booking decision on a busy day of shared routes.
///
/// The day is filled the way vand fills it: seeded requests, one after another, each placed by
/// `Scheduler.check` on the routes so far (a refused rider takes the nearest suggestion), until
/// `rides` rides are on `vans` vans. Then `requests` more requests are decided against the full
/// day without being booked: those that fit time an insertion, the others an insertion plus the
/// search for the nearest feasible times before and after (the suggestions).
struct SchedulerBenchmark {
    let vans: Int
    let rides: Int
    let requests: Int

    /// Times of decisions, in seconds.
    struct Samples {
        var values: [Double] = []

        var count: Int { values.count }

        func percentile(_ p: Double) -> Double {
            guard !values.isEmpty else { return .nan }
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
    }

    struct Result {
        /// Rides on the routes when the decisions were timed.
        var booked = 0
        /// Rides in the busiest van's route.
        var longestRoute = 0
        /// Decisions that found a place at the asked time.
        var insertions = Samples()
        /// Decisions that had to search for suggestions.
        var withSuggestions = Samples()
        /// Seconds spent filling the day.
        var fillSeconds = 0.0
    }

    func run() throws -> Result {
        var rng = SeededGenerator(seed: UInt64(vans * 1_000_003 + rides))
        let zone = TimeZone(identifier: "America/New_York")!
        let scheduler = Scheduler(hours: ServiceHours.wheelsDefault(timeZone: zone))
        let fleet = try (1...vans).map { try Van(id: Int64($0), name: "Van \($0)", seats: 8, wheelchairPositions: $0 % 3 == 0 ? 0 : 1) }
        // Wednesday 2026-11-25 00:00 New York, in the middle of the weekday stretch of service.
        let dayStart = Date(timeIntervalSince1970: 1_795_582_800)
        let campus = try (0..<40).map { _ in
            try Coordinate(latitude: 41.30 + Double.random(in: 0...0.03, using: &rng), longitude: -72.94 + Double.random(in: 0...0.03, using: &rng))
        }
        func request() -> RideRequest {
            // Most rides between 07:00 and 23:00, on the minute; a tenth at night.
            let minute =
                Int.random(in: 0..<10, using: &rng) == 0
                ? Int.random(in: 0..<(24 * 60), using: &rng)
                : Int.random(in: (7 * 60)..<(23 * 60), using: &rng)
            var pickup = campus.randomElement(using: &rng)!, dropoff = campus.randomElement(using: &rng)!
            while dropoff == pickup { dropoff = campus.randomElement(using: &rng)!; pickup = campus.randomElement(using: &rng)! }
            return RideRequest(
                pickup: pickup, dropoff: dropoff,
                wheelchair: Int.random(in: 0..<10, using: &rng) == 0,
                pickupAt: dayStart.addingTimeInterval(Double(minute) * 60),
                promise: Int.random(in: 0..<5, using: &rng) == 0 ? .arriveBy : .pickup,
                companions: Int.random(in: 0..<6, using: &rng) == 0 ? 1 : 0
            )
        }

        var result = Result()
        var booked: [BookedRide] = []
        booked.reserveCapacity(rides)
        let clock = ContinuousClock()
        let fillStart = clock.now
        var misses = 0
        while booked.count < rides, misses < rides {
            let asked = request()
            var placed: Assignment?
            switch scheduler.check(asked, vans: fleet, rides: booked) {
            case .feasible(let assignment): placed = assignment
            case .infeasible(_, let earlier, let later):
                let nearest = [earlier, later].compactMap { $0 }.min { abs($0.minutesFromRequested) < abs($1.minutesFromRequested) }
                if let nearest {
                    var retry = asked
                    retry.pickupAt = nearest.asked
                    placed = scheduler.check(retry, vans: fleet, rides: booked).assignment
                }
            }
            guard let placed else { misses += 1; continue }
            booked = placed.booking(asked, id: UUID(), into: booked)
        }
        result.fillSeconds = seconds(clock.now - fillStart)
        result.booked = booked.count
        result.longestRoute = Dictionary(grouping: booked, by: \.vanID).values.map(\.count).max() ?? 0

        for _ in 0..<requests {
            let asked = request()
            var outcome: Feasibility?
            let elapsed = clock.measure { outcome = scheduler.check(asked, vans: fleet, rides: booked) }
            if outcome?.isFeasible == true {
                result.insertions.values.append(seconds(elapsed))
            } else {
                result.withSuggestions.values.append(seconds(elapsed))
            }
        }
        return result
    }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
