import Foundation
import VanDomain
import VanScheduler

/// Times `Scheduler.check` for one request among `vans` vans and `rides` rides in a day,
/// on a seeded random but realistic day (so runs are comparable).
struct SchedulerBenchmark {
    let vans: Int
    let rides: Int
    let requests: Int

    struct Result {
        let vans: Int
        let rides: Int
        let samples: [Double]  // seconds
        var median: Double { percentile(0.5) }
        var p99: Double { percentile(0.99) }
        var feasibleShare: Double = 0

        func percentile(_ p: Double) -> Double {
            let sorted = samples.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
    }

    func run() throws -> Result {
        var rng = SeededGenerator(seed: UInt64(vans * 1_000_003 + rides))
        let zone = TimeZone(identifier: "America/New_York")!
        let scheduler = Scheduler(hours: ServiceHours.wheelsDefault(timeZone: zone))
        let fleet = try (1...vans).map { try Van(id: Int64($0), name: "Van \($0)", seats: 8, wheelchairPositions: $0 % 3 == 0 ? 0 : 1) }
        // Monday 2026-11-23 00:00 New York; rides spread over the day, back to back per van
        // (a busy fleet), each 5-40 minutes between random campus points.
        let dayStart = Date(timeIntervalSince1970: 1_795_410_000)
        let campus = try (0..<40).map { _ in
            try Coordinate(latitude: 41.30 + Double.random(in: 0...0.03, using: &rng), longitude: -72.94 + Double.random(in: 0...0.03, using: &rng))
        }
        var booked: [BookedRide] = []
        booked.reserveCapacity(rides)
        let perVan = max(1, rides / vans)
        let slot = 86_400.0 / Double(perVan)
        for van in fleet {
            for index in 0..<perVan where booked.count < rides {
                let start = dayStart.addingTimeInterval(Double(index) * slot)
                let length = min(slot * 0.8, Double.random(in: 300...2_400, using: &rng))
                booked.append(BookedRide(id: UUID(), vanID: van.id, pickupAt: start, dropoffAt: start.addingTimeInterval(length),
                                         pickup: campus.randomElement(using: &rng), dropoff: campus.randomElement(using: &rng)))
            }
        }
        var samples: [Double] = []
        samples.reserveCapacity(requests)
        var feasible = 0
        let clock = ContinuousClock()
        for _ in 0..<requests {
            let request = RideRequest(
                pickup: campus.randomElement(using: &rng), dropoff: campus.randomElement(using: &rng),
                wheelchair: Int.random(in: 0..<10, using: &rng) == 0,
                pickupAt: dayStart.addingTimeInterval(Double(Int.random(in: 0..<(24 * 12), using: &rng)) * 300)
            )
            var outcome: Feasibility?
            let elapsed = clock.measure { outcome = scheduler.check(request, vans: fleet, rides: booked) }
            if outcome?.isFeasible == true { feasible += 1 }
            samples.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
        }
        var result = Result(vans: vans, rides: rides, samples: samples)
        result.feasibleShare = Double(feasible) / Double(requests)
        return result
    }
}

