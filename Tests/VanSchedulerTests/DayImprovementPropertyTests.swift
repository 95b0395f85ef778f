import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanScheduler

/// `Scheduler.improve` (what `vanadmin plan optimize` and the background planner run) on random
/// days booked one ride at a time, with promised windows, ride-time limits, seats and wheelchairs:
/// the improved routes, checked here from the rules rather than by the engine, never move a stop
/// outside its ride's window, never drop a ride, never move a ride about to start, and never drive more.
@Suite struct DayImprovementPropertyTests {
    static let day = local(2026, 11, 23, 0)

    @Test(arguments: 0..<8)
    func improvementKeepsEveryPromiseAndEveryRide(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x2545_F491 &+ 11)
        var improvedDays = 0
        for trial in 0..<10 {
            let (scheduler, vans, rides) = Self.randomDay(&rng)
            guard !rides.isEmpty else { continue }
            // Sometimes "now" is mid-afternoon: rides planned to start before the lock stay put.
            let lockBefore: Date? =
                Bool.random(using: &rng) ? Self.day.addingTimeInterval(Double(Int.random(in: 16 * 60...(17 * 60), using: &rng) * 60)) : nil
            let stretch = try #require(scheduler.stretches(on: LocalDate(containing: Self.day, in: newYork)).first { $0.contains(rides[0].pickupAt) })
            let result = scheduler.improve(
                stretch: stretch, vans: vans, rides: rides, lockBefore: lockBefore,
                seed: UInt64(trial), maxIterations: 300, progress: { 0 })
            let context = "seed \(seed) trial \(trial)"
            #expect(Set(result.changes.keys).isSubset(of: Set(rides.map(\.id))), "\(context): a change to an unknown ride")
            #expect(result.after.driving <= result.before.driving + 1e-6, "\(context): more driving")
            #expect(result.changes.isEmpty == (result.after == result.before), "\(context)")
            var after = rides
            for index in after.indices {
                guard let change = result.changes[after[index].id] else { continue }
                after[index].vanID = change.vanID
                after[index].pickupAt = change.stops.pickupAt
                after[index].dropoffAt = change.stops.dropoffAt
            }
            #expect(after.count == rides.count && result.after.rides == rides.count, "\(context): a ride was dropped")
            Self.expectFeasible(after, scheduler: scheduler, vans: vans, stretch: stretch, context)
            if let lockBefore {
                for (old, new) in zip(rides, after) where old.pickupAt < lockBefore {
                    #expect(old == new, "\(context): ride \(old.id) about to start was moved")
                }
            }
            if !result.changes.isEmpty { improvedDays += 1 }
        }
        // The property is not vacuous: some days did improve.
        #expect(improvedDays > 0, "seed \(seed): no day improved")
    }

    /// The rules, read directly from the planned times: each ride inside its promise and its ride-time
    /// limit, on a van that can take it; each van's stops, in time order, far enough apart to board,
    /// alight and drive between them; never more riders or wheelchairs aboard than the van has room for.
    static func expectFeasible(_ rides: [BookedRide], scheduler: Scheduler, vans: [Van], stretch: DateInterval, _ context: String) {
        let e = scheduler.estimator
        for ride in rides {
            #expect(ride.promise.isKept(pickupAt: ride.pickupAt, dropoffAt: ride.dropoffAt), "\(context): ride \(ride.id) outside its window")
            #expect(ride.dropoffAt.timeIntervalSince(ride.pickupAt) <= ride.maxRideTime, "\(context): ride \(ride.id) too long")
            #expect(stretch.contains(ride.pickupAt) && ride.dropoffAt <= stretch.end, "\(context): outside service")
            #expect(vans.contains { $0.id == ride.vanID }, "\(context): unknown van")
        }
        for van in vans {
            struct Stop { let at: Date, place: Coordinate?, service: Double, seats: Int, chairs: Int }
            let stops = rides.filter { $0.vanID == van.id }.flatMap { ride -> [Stop] in
                let seats = Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions), chairs = ride.wheelchair ? 1 : 0
                return [
                    Stop(
                        at: ride.pickupAt, place: ride.pickup, service: ride.wheelchair ? e.wheelchairBoarding : e.boarding, seats: seats,
                        chairs: chairs),
                    Stop(
                        at: ride.dropoffAt, place: ride.dropoff, service: ride.wheelchair ? e.wheelchairAlighting : e.alighting, seats: -seats,
                        chairs: -chairs),
                ]
            }.sorted { $0.at != $1.at ? $0.at < $1.at : $0.seats < $1.seats }
            var seats = 0, chairs = 0
            for stop in stops {
                seats += stop.seats
                chairs += stop.chairs
                #expect(seats <= van.seats && chairs <= van.wheelchairPositions, "\(context): van \(van.id) overloaded")
            }
            for (a, b) in zip(stops, stops.dropFirst()) {
                let drive = a.place == b.place ? 0 : e.deadhead(from: a.place, to: b.place)
                // One second for the engine's rounding of planned times to whole seconds.
                #expect(b.at.timeIntervalSince(a.at) >= a.service + drive - 1, "\(context): van \(van.id) cannot make \(a.at) → \(b.at)")
            }
        }
    }

    /// One to three vans with few seats, and up to 14 rides over two afternoon hours booked one by
    /// one through the scheduler (so every promise holds to begin with), greedily.
    static func randomDay(_ rng: inout SeededGenerator) -> (Scheduler, [Van], [BookedRide]) {
        var scheduler = Scheduler(hours: Fixture.hours)
        scheduler.windowWidth = Double(Int.random(in: 1...4, using: &rng) * 5 * 60)
        let vans = (1...Int.random(in: 1...3, using: &rng)).map { id in
            try! Van(
                id: Int64(id), name: "Van \(id)", seats: Int.random(in: 1...4, using: &rng), wheelchairPositions: Int.random(in: 0...1, using: &rng))
        }
        var rides: [BookedRide] = []
        for n in 0..<Int.random(in: 4...14, using: &rng) {
            let request = randomRequest(&rng)
            guard let placed = scheduler.check(request, vans: vans, rides: rides).assignment else { continue }
            rides = placed.booking(request, id: Fixture.uuid(n + 1), into: rides)
        }
        return (scheduler, vans, rides)
    }

    static func randomRequest(_ rng: inout SeededGenerator) -> RideRequest {
        let places = RouteOracleTests.places
        let from = places.randomElement(using: &rng)!
        var to = places.randomElement(using: &rng)!
        while to == from { to = places.randomElement(using: &rng)! }
        let minute = Int.random(in: (16 * 60)...(18 * 60), using: &rng)
        return RideRequest(
            pickup: from, dropoff: to, wheelchair: Int.random(in: 0..<5, using: &rng) == 0,
            pickupAt: day.addingTimeInterval(Double(minute * 60)),
            promise: Bool.random(using: &rng) ? .pickup : .arriveBy, companions: Int.random(in: 0...1, using: &rng))
    }
}
