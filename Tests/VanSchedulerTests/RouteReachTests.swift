import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanScheduler

/// A booking plans on a few hours of rides (``Scheduler/routeReach``), not the whole day: the rides
/// picked up in its span and those still aboard when the span starts. On random busy days, that
/// short read must decide exactly as the whole day does, or say that it came near the cut.
@Suite struct RouteReachTests {
    static let day = local(2026, 11, 23, 0)

    @Test(arguments: 0..<6)
    func aShortReachDecidesAsTheWholeDayOrSaysItCameNearTheCut(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 5)
        var agreed = 0, nearCut = 0, refusedBoth = 0, aboardAtCut = 0
        for trial in 0..<6 {
            let (whole, vans, rides) = Self.busyDay(&rng)
            var short = whole
            short.routeReach = 3 * 3_600
            for probe in 0..<12 {
                let request = Self.request(&rng, hours: 8...21)
                let span = short.routeSpan(around: request.pickupAt)
                let read = rides.filter { span.contains($0.pickupAt) || ($0.pickupAt < span.start && $0.dropoffAt > span.start) }
                aboardAtCut += read.filter { $0.pickupAt < span.start }.count
                let context =
                    "seed \(seed) trial \(trial) probe \(probe) at \(request.pickupAt) span \(span) aboard \(read.filter { $0.pickupAt < span.start }.map { ($0.vanID, $0.pickupAt, $0.dropoffAt) })"
                let near = short.check(request, vans: vans, rides: read)
                let far = whole.check(request, vans: vans, rides: rides)
                switch (near, far) {
                case (.feasible(let a), .feasible(let b)) where !a.nearRouteEdge:
                    #expect(a.vanID == b.vanID && a.pickupAt == b.pickupAt && a.dropoffAt == b.dropoffAt, "\(context): \(a) vs \(b)")
                    #expect(a.replanned == b.replanned, "\(context): re-planned rides differ")
                    agreed += 1
                case (.feasible(let a), _) where a.nearRouteEdge:
                    nearCut += 1
                case (.feasible(let a), .infeasible):
                    Issue.record("\(context): the short read placed a ride the whole day refuses: \(a)")
                case (.infeasible, .feasible(let b)):
                    Issue.record("\(context): the short read refused (\(near)) a ride the whole day places: \(b)")
                default:
                    refusedBoth += 1
                }
            }
        }
        // Not vacuous: most probes agree, and some read rides aboard at the cut.
        #expect(agreed > 20, "seed \(seed): only \(agreed) agreed (\(nearCut) near the cut, \(refusedBoth) refused)")
        #expect(aboardAtCut > 0, "seed \(seed): no ride was aboard at a cut")
    }

    @Test func aRideAboardWhenTheRouteIsCutStillTakesItsSeat() throws {
        // One van with one seat, taken from 9:20 to 10:05. A request for 10:00 with a reach of
        // 30 minutes cuts the route at 9:30: the ride aboard then must still hold the seat.
        var scheduler = Scheduler(hours: Fixture.hours)
        scheduler.searchWindow = 0
        scheduler.routeReach = 1_800
        let van = try Van(id: 1, name: "Van 1", seats: 1, wheelchairPositions: 0)
        let boarded = Self.day.addingTimeInterval(9 * 3_600 + 20 * 60), leaves = Self.day.addingTimeInterval(10 * 3_600 + 5 * 60)
        let aboard = BookedRide(
            id: Fixture.uuid(1), vanID: 1, pickupAt: boarded, dropoffAt: leaves, pickup: Fixture.sss, dropoff: Fixture.davenport,
            promise: RidePromise(kind: .pickup, window: DateInterval(start: boarded, duration: 0)), maxRideTime: 3 * 3_600)
        let request = RideRequest(pickup: Fixture.davenport, dropoff: Fixture.sss, pickupAt: Self.day.addingTimeInterval(10 * 3_600))
        #expect(scheduler.routeSpan(around: request.pickupAt).start == Self.day.addingTimeInterval(9 * 3_600 + 30 * 60))
        let placed = try #require(scheduler.check(request, vans: [van], rides: [aboard]).assignment)
        #expect(placed.pickupAt >= leaves.addingTimeInterval(scheduler.estimator.alighting), "boarded while the only seat was taken")
        #expect(placed.replanned.isEmpty, "the ride aboard was moved")
        // Without it the seat would look free at 10:00: the test can fail.
        #expect(scheduler.check(request, vans: [van], rides: []).assignment?.pickupAt == request.pickupAt)
    }

    /// A day of up to 60 requests from 6:00 to 23:00 on one to three small vans, booked one at a
    /// time on the whole day.
    static func busyDay(_ rng: inout SeededGenerator) -> (Scheduler, [Van], [BookedRide]) {
        var scheduler = Scheduler(hours: Fixture.hours)
        scheduler.windowWidth = Double(Int.random(in: 1...3, using: &rng) * 5 * 60)
        let vans = (1...Int.random(in: 1...3, using: &rng)).map { id in
            try! Van(
                id: Int64(id), name: "Van \(id)", seats: Int.random(in: 1...4, using: &rng), wheelchairPositions: Int.random(in: 0...1, using: &rng))
        }
        var rides: [BookedRide] = []
        for n in 0..<Int.random(in: 30...60, using: &rng) {
            let request = request(&rng, hours: 6...22)
            guard let placed = scheduler.check(request, vans: vans, rides: rides).assignment else { continue }
            rides = placed.booking(request, id: Fixture.uuid(n + 1), into: rides)
        }
        return (scheduler, vans, rides)
    }

    static func request(_ rng: inout SeededGenerator, hours: ClosedRange<Int>) -> RideRequest {
        let places = RouteOracleTests.places
        let from = places.randomElement(using: &rng)!
        var to = places.randomElement(using: &rng)!
        while to == from { to = places.randomElement(using: &rng)! }
        let minute = Int.random(in: (hours.lowerBound * 60)...(hours.upperBound * 60), using: &rng)
        return RideRequest(
            pickup: from, dropoff: to, wheelchair: Int.random(in: 0..<5, using: &rng) == 0,
            pickupAt: day.addingTimeInterval(Double(minute * 60)),
            promise: Bool.random(using: &rng) ? .pickup : .arriveBy, companions: Int.random(in: 0...1, using: &rng))
    }
}
