import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanScheduler

/// The scheduler against brute force on small random days: every way of inserting a ride's two
/// stops into every van's route, each checked by an independent timing check written here from
/// the definition (difference constraints solved with Floyd–Warshall), not from the engine.
@Suite struct RouteOracleTests {
    static let places = [
        try! Coordinate(latitude: 41.3110, longitude: -72.9254),  // SSS
        try! Coordinate(latitude: 41.3163, longitude: -72.9223),  // Davenport
        try! Coordinate(latitude: 41.3180, longitude: -72.9230),
        try! Coordinate(latitude: 41.3030, longitude: -72.9310),
        try! Coordinate(latitude: 41.3290, longitude: -72.9150),
    ]
    static let day = local(2026, 11, 23, 0)

    @Test(arguments: 0..<6)
    func feasibilityAndCostAgreeWithBruteForce(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 7)
        var seen: Set<String> = []
        for _ in 0..<40 {
            let (scheduler, vans, rides) = Self.randomDay(&rng)
            let request = Self.randomRequest(&rng)
            let fast = scheduler.check(request, vans: vans, rides: rides)
            let slow = BruteForce(scheduler: scheduler, vans: vans, rides: rides).best(request, asked: request.pickupAt)
            #expect(fast.isFeasible == (slow != nil), "seed \(seed): \(request.pickupAt) \(request.promise)")
            if let placed = fast.assignment, let slow {
                #expect(abs(placed.addedDriving - slow) < 1e-6, "added driving \(placed.addedDriving) vs brute force \(slow)")
                #expect(placed.promise.isKept(pickupAt: placed.pickupAt, dropoffAt: placed.dropoffAt))
                #expect(placed.dropoffAt.timeIntervalSince(placed.pickupAt) <= placed.maxRideTime)
            }
            seen.insert(fast.isFeasible ? "feasible" : "refused")
            if rides.count >= 3 { seen.insert("busy") }
        }
        #expect(seen.isSuperset(of: ["feasible", "refused", "busy"]), "\(seen)")
    }

    /// Typed addresses (no coordinates) cost a fixed guess to reach; a short guess breaks the
    /// triangle inequality, so insertion cannot prune on route times and takes its slower path.
    @Test(arguments: 0..<4)
    func typedAddressesAgreeWithBruteForce(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x2545_F491 &+ 11)
        var seen: Set<String> = []
        for _ in 0..<40 {
            let (scheduler, vans, rides) = Self.randomDay(&rng, typedAddresses: true)
            let request = Self.randomRequest(&rng, typedAddresses: true)
            let fast = scheduler.check(request, vans: vans, rides: rides)
            let slow = BruteForce(scheduler: scheduler, vans: vans, rides: rides).best(request, asked: request.pickupAt)
            #expect(fast.isFeasible == (slow != nil), "seed \(seed): \(request.pickupAt) \(request.promise)")
            if let placed = fast.assignment, let slow {
                #expect(abs(placed.addedDriving - slow) < 1e-6, "added driving \(placed.addedDriving) vs brute force \(slow)")
            }
            let day = RouteDay(
                stretch: DateInterval(start: Self.day, duration: 86_400), vans: vans, rides: rides,
                newRide: .init(pickup: request.pickup, dropoff: request.dropoff, wheelchair: false, companions: 0),
                estimator: scheduler.estimator, lockBefore: nil)
            seen.insert(day.problem.tables.metric ? "metric" : "not metric")
            seen.insert(fast.isFeasible ? "feasible" : "refused")
        }
        #expect(seen.isSuperset(of: ["feasible", "refused", "not metric"]), "\(seen)")
    }

    @Test(arguments: 0..<4)
    func suggestionsAreTheNearestFeasibleMinutes(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x51_7CC1 &+ 3)
        var checked = 0
        for _ in 0..<40 where checked < 6 {
            var (scheduler, vans, rides) = Self.randomDay(&rng)
            scheduler.searchWindow = 45 * 60
            let request = Self.randomRequest(&rng)
            guard case .infeasible(.occupied, let earlier, let later) = scheduler.check(request, vans: vans, rides: rides) else { continue }
            checked += 1
            let brute = BruteForce(scheduler: scheduler, vans: vans, rides: rides)
            func nearest(_ direction: Int) -> Date? {
                for minute in 1...45 {
                    let asked = request.pickupAt.addingTimeInterval(Double(direction * minute * 60))
                    if brute.best(request, asked: asked) != nil { return asked }
                }
                return nil
            }
            #expect(earlier?.asked == nearest(-1), "earlier")
            #expect(later?.asked == nearest(1), "later")
        }
        #expect(checked > 0, "no refused request to check")
    }

    /// Up to two vans with small seat counts, and rides booked one by one through the scheduler.
    static func randomDay(_ rng: inout SeededGenerator, typedAddresses: Bool = false) -> (Scheduler, [Van], [BookedRide]) {
        var scheduler = Scheduler(hours: Fixture.hours)
        if typedAddresses { scheduler.estimator.unknownDeadhead = 90 }
        scheduler.windowWidth = Double(Int.random(in: 0...3, using: &rng) * 5 * 60)
        let vans = (1...Int.random(in: 1...2, using: &rng)).map { id in
            try! Van(
                id: Int64(id), name: "Van \(id)", seats: Int.random(in: 1...3, using: &rng), wheelchairPositions: Int.random(in: 0...1, using: &rng))
        }
        var rides: [BookedRide] = []
        for n in 0..<Int.random(in: 0...5, using: &rng) {
            let request = randomRequest(&rng, typedAddresses: typedAddresses)
            guard let placed = scheduler.check(request, vans: vans, rides: rides).assignment else { continue }
            rides = placed.booking(request, id: Fixture.uuid(n + 1), into: rides)
        }
        return (scheduler, vans, rides)
    }

    /// With `typedAddresses`, a third of the requests have one end typed (no coordinate); never
    /// both, whose leg the engine guesses differently from a deadhead.
    static func randomRequest(_ rng: inout SeededGenerator, typedAddresses: Bool = false) -> RideRequest {
        var from: Coordinate? = places.randomElement(using: &rng)!
        var to: Coordinate? = places.randomElement(using: &rng)!
        while to == from { to = places.randomElement(using: &rng)! }
        if typedAddresses, Int.random(in: 0..<3, using: &rng) == 0 {
            if Bool.random(using: &rng) { from = nil } else { to = nil }
        }
        let minute = Int.random(in: (16 * 60)...(16 * 60 + 50), using: &rng)
        return RideRequest(
            pickup: from, dropoff: to, wheelchair: Int.random(in: 0..<5, using: &rng) == 0,
            pickupAt: day.addingTimeInterval(Double(minute * 60)),
            promise: Bool.random(using: &rng) ? .pickup : .arriveBy, companions: Int.random(in: 0...1, using: &rng))
    }
}

/// The rules, read directly: a ride fits a van if its pickup and drop-off can go somewhere in the
/// van's stop list (the existing stops keep their order) so that times exist for every stop with
/// each stop inside its window and the stretch of service, each leg's boarding or alighting plus
/// driving between stops, each rider's ride (pickup to arrival) within its limit less the second
/// kept in hand for rounding, and the riders aboard never more than the van's seats and positions.
private struct BruteForce {
    let scheduler: Scheduler
    let vans: [Van]
    let rides: [BookedRide]

    struct Stop {
        let place: Coordinate?
        let service: Double
        let earliest: Double
        let latest: Double
        let seats: Int
        let wheelchairs: Int
        let ride: Int
        let isPickup: Bool
    }

    /// The least added driving of any feasible insertion of `request` asked for `asked`, or nil.
    func best(_ request: RideRequest, asked: Date) -> Double? {
        let e = scheduler.estimator
        let direct = scheduler.directRide(for: request)
        let alighting = request.wheelchair ? e.wheelchairAlighting : e.alighting
        let start = request.promise == .pickup ? asked : asked.addingTimeInterval(-direct)
        let trip = DateInterval(start: start, duration: direct + alighting)
        let stretches = scheduler.hours.openIntervals(from: trip.start.addingTimeInterval(-86_400), to: trip.end.addingTimeInterval(86_400))
        guard let stretch = stretches.first(where: { $0.start <= trip.start && trip.end <= $0.end }) else { return nil }
        func t(_ date: Date) -> Double { date.timeIntervalSince(stretch.start) }
        let span = stretch.duration
        let promise = RidePromise(kind: request.promise, asked: asked, width: scheduler.windowWidth)
        var best: Double?
        for van in vans where !request.wheelchair || van.wheelchairPositions > 0 {
            var stops: [Stop] = []
            for (index, ride) in rides.enumerated() where ride.vanID == van.id && stretch.contains(ride.pickupAt) {
                let onPickup = ride.promise.kind == .pickup
                stops.append(
                    Stop(
                        place: ride.pickup, service: ride.wheelchair ? e.wheelchairBoarding : e.boarding,
                        earliest: onPickup ? max(0, t(ride.promise.window.start)) : 0,
                        latest: onPickup ? min(span, t(ride.promise.window.end)) : span,
                        seats: Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions), wheelchairs: ride.wheelchair ? 1 : 0,
                        ride: index, isPickup: true))
                stops.append(
                    Stop(
                        place: ride.dropoff, service: ride.wheelchair ? e.wheelchairAlighting : e.alighting,
                        earliest: onPickup ? 0 : max(0, t(ride.promise.window.start)),
                        latest: onPickup ? span : min(span, t(ride.promise.window.end)),
                        seats: -Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions), wheelchairs: ride.wheelchair ? -1 : 0,
                        ride: index, isPickup: false))
            }
            let times = Dictionary(
                uniqueKeysWithValues: rides.enumerated().flatMap { index, ride in
                    [("\(index)p", ride.pickupAt), ("\(index)d", ride.dropoffAt)]
                })
            stops.sort {
                (times["\($0.ride)\($0.isPickup ? "p" : "d")"]!, $0.isPickup ? 1 : 0) < (
                    times["\($1.ride)\($1.isPickup ? "p" : "d")"]!, $1.isPickup ? 1 : 0
                )
            }
            let new = rides.count
            let seats = Ride.seats(wheelchair: request.wheelchair, companions: request.companions), chairs = request.wheelchair ? 1 : 0
            let pickup = Stop(
                place: request.pickup, service: request.wheelchair ? e.wheelchairBoarding : e.boarding,
                earliest: max(0, promise.kind == .pickup ? t(promise.window.start) : 0, request.notBefore.map(t) ?? 0),
                latest: promise.kind == .pickup ? min(span, t(promise.window.end)) : span,
                seats: seats, wheelchairs: chairs, ride: new, isPickup: true)
            let dropoff = Stop(
                place: request.dropoff, service: alighting,
                earliest: promise.kind == .arriveBy ? max(0, t(promise.window.start)) : 0,
                latest: promise.kind == .arriveBy ? min(span, t(promise.window.end)) : span,
                seats: -seats, wheelchairs: -chairs, ride: new, isPickup: false)
            let before = cost(stops)
            guard feasible(stops, van: van, limit: { limitOf($0, request) }) || stops.isEmpty else { continue }
            for i in 0...stops.count {
                for j in (i + 1)...(stops.count + 1) {
                    var route = stops
                    route.insert(pickup, at: i)
                    route.insert(dropoff, at: j)
                    guard feasible(route, van: van, limit: { limitOf($0, request) }) else { continue }
                    let added = cost(route) - before
                    best = min(best ?? .infinity, added)
                }
            }
        }
        return best
    }

    func limitOf(_ ride: Int, _ request: RideRequest) -> Double {
        (ride < rides.count ? rides[ride].maxRideTime : scheduler.maxRideTime(for: request)) - 1
    }

    func travel(_ a: Coordinate?, _ b: Coordinate?) -> Double {
        guard let a, let b else { return scheduler.estimator.unknownDeadhead }
        return a == b ? 0 : scheduler.estimator.deadhead(from: a, to: b)
    }

    func cost(_ route: [Stop]) -> Double {
        zip(route, route.dropFirst()).reduce(0) { $0 + travel($1.0.place, $1.1.place) }
    }

    /// Loads within the van, and times by difference constraints: node 0 is the time origin,
    /// stop k is node k + 1; an edge a → b of weight w says t_b − t_a ≤ w. Feasible iff no negative cycle.
    func feasible(_ route: [Stop], van: Van, limit: (Int) -> Double) -> Bool {
        var seats = 0, chairs = 0
        for stop in route {
            seats += stop.seats
            chairs += stop.wheelchairs
            if seats > van.seats || chairs > van.wheelchairPositions { return false }
        }
        let n = route.count + 1
        var d = Array(repeating: Array(repeating: Double.infinity, count: n), count: n)
        for k in 0..<n { d[k][k] = 0 }
        func edge(_ a: Int, _ b: Int, _ w: Double) { d[a][b] = min(d[a][b], w) }
        for (k, stop) in route.enumerated() {
            edge(0, k + 1, stop.latest)
            edge(k + 1, 0, -stop.earliest)
            if k > 0 { edge(k + 1, k, -(route[k - 1].service + travel(route[k - 1].place, stop.place))) }
        }
        for (k, stop) in route.enumerated() where stop.isPickup {
            if let j = route.firstIndex(where: { $0.ride == stop.ride && !$0.isPickup }) { edge(k + 1, j + 1, limit(stop.ride)) }
        }
        for m in 0..<n {
            for a in 0..<n where d[a][m] < .infinity {
                for b in 0..<n where d[m][b] < .infinity {
                    d[a][b] = min(d[a][b], d[a][m] + d[m][b])
                }
            }
        }
        return (0..<n).allSatisfy { d[$0][$0] >= -1e-6 }
    }
}
