import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

/// Compares the fast scheduler (binary search, precomputed service stretches, grid scan) with a
/// brute-force reading of the rules on seeded random fleets and days.
@Suite struct SchedulerOracleTests {
    static let places: [Coordinate?] = [
        nil,
        try! Coordinate(latitude: 41.3110, longitude: -72.9254), // SSS
        try! Coordinate(latitude: 41.3163, longitude: -72.9223), // Davenport
        try! Coordinate(latitude: 41.3180, longitude: -72.9230),
        try! Coordinate(latitude: 41.3030, longitude: -72.9310),
        try! Coordinate(latitude: 41.3290, longitude: -72.9150),
    ]
    /// Days covering weekdays, weekends, the fall-back night and a closure.
    static let days: [(Int, Int, Int)] = [(2026, 11, 23), (2026, 11, 21), (2026, 11, 22), (2026, 10, 31), (2026, 11, 1), (2026, 11, 25), (2026, 11, 26), (2026, 11, 27)]

    @Test(arguments: 0..<8)
    func fastCheckAgreesWithBruteForce(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
        let scheduler = Scheduler(hours: Fixture.hours, closures: [Fixture.thanksgiving])
        var seen: Set<String> = []
        for _ in 0..<60 {
            let (vans, rides, request) = Self.randomCase(&rng)
            let fast = scheduler.check(request, vans: vans, rides: rides)
            let slow = BruteForce(scheduler: scheduler).check(request, vans: vans, rides: rides)
            #expect(fast == slow, "request \(request.pickupAt) wheelchair \(request.wheelchair) vans \(vans.map(\.id))")
            seen.insert(fast.reason?.code ?? "feasible")
            if fast.suggestions.count == 2 { seen.insert("both suggestions") }
        }
        // The cases must exercise the interesting outcomes, or agreement proves little.
        #expect(seen.isSuperset(of: ["feasible", "occupied", "outside_service_hours", "closed", "both suggestions"]), "\(seen)")
    }

    static func randomCase(_ rng: inout SeededGenerator) -> ([Van], [BookedRide], RideRequest) {
        let vanCount = Int.random(in: 1...4, using: &rng)
        let ids = Array(Set((0..<vanCount).map { _ in Int64.random(in: 1...9, using: &rng) })).sorted()
        let vans = ids.map { id in
            Fixture.van(id, wheelchair: Bool.random(using: &rng) ? 1 : 0, active: Int.random(in: 0..<10, using: &rng) > 0)
        }
        let (y, m, d) = days.randomElement(using: &rng)!
        let dayStart = local(y, m, d, 0)
        var rides: [BookedRide] = []
        for van in vans {
            // Non-overlapping rides; gaps may be shorter than the deadhead (stored data need not be tidy).
            var cursor = dayStart.addingTimeInterval(-Double(Int.random(in: 0...180, using: &rng)) * 60)
            while cursor < dayStart.addingTimeInterval(26 * 3_600) {
                cursor += Double(Int.random(in: 0...90, using: &rng)) * 60
                // Mostly whole minutes, so exact touches (ready == pickup) happen often.
                let seconds = Int.random(in: 0..<3, using: &rng) == 0 ? Int.random(in: 1...59, using: &rng) : 0
                let length = Double(Int.random(in: 5...45, using: &rng) * 60 + seconds)
                rides.append(BookedRide(
                    id: Fixture.uuid(rides.count + 1), vanID: van.id, pickupAt: cursor, dropoffAt: cursor + length,
                    pickup: places.randomElement(using: &rng)!, dropoff: places.randomElement(using: &rng)!
                ))
                cursor += length
            }
        }
        let minute = Int.random(in: 0..<(24 * 60), using: &rng)
        let request = RideRequest(
            pickup: places.randomElement(using: &rng)!,
            dropoff: places.randomElement(using: &rng)!,
            wheelchair: Int.random(in: 0..<4, using: &rng) == 0,
            pickupAt: dayStart.addingTimeInterval(Double(minute) * 60),
            excludingRideID: Int.random(in: 0..<5, using: &rng) == 0 ? rides.randomElement(using: &rng)?.id : nil,
            vanID: Int.random(in: 0..<10, using: &rng) == 0 ? ids.randomElement(using: &rng) : nil
        )
        return (vans, rides, request)
    }
}

/// The rules read literally: every ride scanned linearly, service and closures sampled minute by
/// minute over the trip with `ServiceHours.isOpen` and `Calendar`, and every minute in the window
/// tried for suggestions (keeping those on the 5-minute grid). Valid for whole-minute requests.
struct BruteForce {
    let scheduler: Scheduler

    func check(_ request: RideRequest, vans: [Van], rides: [BookedRide]) -> Feasibility {
        let active = vans.filter { $0.active && (request.vanID == nil || $0.id == request.vanID) }
        if active.isEmpty { return .infeasible(reason: .noActiveVan, earlier: nil, later: nil) }
        let able = active.filter { !request.wheelchair || $0.wheelchairPositions > 0 }
        if able.isEmpty { return .infeasible(reason: .noWheelchairVan, earlier: nil, later: nil) }
        let duration = scheduler.tripDuration(for: request)
        let requested = request.pickupAt
        let result = evaluate(request, at: requested, duration: duration, vans: able, rides: rides)
        guard case .infeasible(let reason, _, _) = result else { return result }
        var earlier: Suggestion?
        var later: Suggestion?
        for minute in stride(from: -Int(scheduler.searchWindow / 60), through: Int(scheduler.searchWindow / 60), by: 1) where minute != 0 {
            let time = requested.addingTimeInterval(Double(minute) * 60)
            guard Int(time.timeIntervalSince1970) % Int(scheduler.step) == 0 else { continue }
            if minute > 0, later != nil { break }
            guard let found = evaluate(request, at: time, duration: duration, vans: able, rides: rides).assignment else { continue }
            let suggestion = Suggestion(
                pickupAt: time, dropoffAt: found.dropoffAt, vanID: found.vanID,
                withinADAWindow: abs(minute) * 60 <= Int(scheduler.adaWindow), minutesFromRequested: minute
            )
            if minute < 0 { earlier = suggestion } else { later = suggestion }
        }
        return .infeasible(reason: reason, earlier: earlier, later: later)
    }

    private func evaluate(_ request: RideRequest, at p: Date, duration: TimeInterval, vans: [Van], rides: [BookedRide]) -> Feasibility {
        let d = p.addingTimeInterval(duration)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = scheduler.hours.timeZone
        var sample = p
        while sample < d {
            let parts = calendar.dateComponents([.year, .month, .day], from: sample)
            let date = try! LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)
            if scheduler.closures.contains(date) { return .infeasible(reason: .closed(date), earlier: nil, later: nil) }
            sample += 60
        }
        sample = p
        while sample < d {
            if !scheduler.hours.isOpen(at: sample) { return .infeasible(reason: .outsideServiceHours, earlier: nil, later: nil) }
            sample += 60
        }
        let estimator = scheduler.estimator
        var best: Assignment?
        for van in vans.sorted(by: { $0.id < $1.id }) {
            let mine = rides.filter { $0.vanID == van.id && $0.id != request.excludingRideID }
            if mine.contains(where: { $0.pickupAt < d && $0.dropoffAt > p }) { continue }
            var before = Scheduler.idleCap
            let earlierRides = mine.filter { $0.pickupAt < d }
            if let latestEnd = earlierRides.map(\.dropoffAt).max() {
                // The previous neighbour: latest-ending; among equals, the last in (pickup, drop-off, id) order.
                let previous = earlierRides.filter { $0.dropoffAt == latestEnd }
                    .max { ($0.pickupAt, $0.id.uuidString) < ($1.pickupAt, $1.id.uuidString) }!
                let ready = previous.dropoffAt.addingTimeInterval(estimator.deadhead(from: previous.dropoff, to: request.pickup))
                if ready > p { continue }
                before = min(Scheduler.idleCap, p.timeIntervalSince(ready))
            }
            var after = Scheduler.idleCap
            let laterRides = mine.filter { $0.pickupAt >= d }
            var fits = true
            if let firstStart = laterRides.map(\.pickupAt).min() {
                for next in laterRides where next.pickupAt == firstStart {
                    let free = d.addingTimeInterval(estimator.deadhead(from: request.dropoff, to: next.pickup))
                    if free > next.pickupAt { fits = false }
                    after = min(after, next.pickupAt.timeIntervalSince(free))
                }
            }
            guard fits else { continue }
            if best == nil || before + after < best!.idleGap {
                best = Assignment(vanID: van.id, pickupAt: p, dropoffAt: d, idleGap: before + after)
            }
        }
        return best.map { .feasible($0) } ?? .infeasible(reason: .occupied, earlier: nil, later: nil)
    }
}

