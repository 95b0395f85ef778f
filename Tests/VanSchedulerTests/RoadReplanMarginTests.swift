import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanScheduler

/// `Scheduler.replanFromRoad` with a margin: a move is made only with room to spare, for the
/// moved ride (served at least the margin before her window ends) and for the riders already on
/// the van it goes to (none gives up the last of her slack for it). Random days check the same
/// guarantees as without a margin, and these two besides.
@Suite struct RoadReplanMarginTests {
    let places = RouteOracleTests.places
    let now = local(2026, 11, 23, 16)
    let scheduler = Scheduler(hours: Fixture.hours)

    /// Van 1 held up for an hour; van 2 stands at the waiting ride's pickup, free from `free`
    /// seconds from now. The ride's window runs from 900 to 1,800 s.
    func replan(van2FreeAt free: TimeInterval, margin: TimeInterval) -> (RoadReplan, BookedRide) {
        let waiting = BookedRide(
            id: Fixture.uuid(2), vanID: 1, pickupAt: now.addingTimeInterval(900), dropoffAt: now.addingTimeInterval(1_500),
            pickup: places[2], dropoff: places[3],
            promise: RidePromise(kind: .pickup, asked: now.addingTimeInterval(900), width: 900), maxRideTime: 3_600)
        let starts = [
            Int64(1): VanStart(place: places[0], at: now.addingTimeInterval(3_600)), 2: VanStart(place: places[2], at: now.addingTimeInterval(free)),
        ]
        let result = scheduler.replanFromRoad(
            vans: [Fixture.van(1), Fixture.van(2)], starts: starts, rides: [RoadRide(waiting)], now: now, margin: margin)
        return (result, waiting)
    }

    @Test func aMoveThatOnlyJustMakesItIsNotMade() throws {
        // Van 2 can be at the pickup a minute before the window ends.
        let (without, ride) = replan(van2FreeAt: 1_740, margin: 0)
        #expect(without.moved == [ride.id], "without a margin the ride moves, to be served in her window's last minute")
        #expect(without.changes[ride.id]?.stops.pickupAt == now.addingTimeInterval(1_740))
        let (with, _) = replan(van2FreeAt: 1_740, margin: 120)
        #expect(with.moved.isEmpty && with.changes.isEmpty)
        #expect(with.unkept == [ride.id], "left as planned: its lateness shows in the ETA and the late alert")
        #expect(with.lateAsPlanned == [ride.id])
    }

    @Test func aMoveWithRoomToSpareIsMade() throws {
        // Van 2 can be there five minutes before the window ends.
        let (result, ride) = replan(van2FreeAt: 1_500, margin: 120)
        #expect(result.moved == [ride.id])
        let change = try #require(result.changes[ride.id])
        #expect(change.vanID == 2)
        #expect(change.stops.pickupAt <= ride.promise.window.end.addingTimeInterval(-120))
    }

    @Test(arguments: 0..<8)
    func withAMarginMovesKeepRoomToSpare(seed: Int) throws {
        let margin: TimeInterval = 120
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 25)
        var lateDays = 0
        for trial in 0..<20 {
            let (scheduler, vans, booked) = DayImprovementPropertyTests.randomDay(&rng)
            guard !booked.isEmpty else { continue }
            let road = RoadReplanPropertyTests.randomRoad(booked, vans: vans, &rng)
            let result = scheduler.replanFromRoad(vans: vans, starts: road.starts, rides: road.rides, now: road.now, margin: margin)
            let context = "seed \(seed) trial \(trial), margin"
            // Every guarantee without a margin holds with one.
            let report = RoadReplanPropertyTests.check(result, road: road, vans: vans, estimator: scheduler.estimator, context)
            if report.lateBefore > 0 { lateDays += 1 }
            let byID = Dictionary(uniqueKeysWithValues: road.rides.map { ($0.ride.id, $0) })
            func promisedStop(_ stops: [Int64: [RoadStop]], _ ride: RoadRide) -> Date? {
                let pickup = ride.ride.promise.kind == .pickup
                return stops.values.lazy.flatMap { $0 }.first { $0.rideID == ride.ride.id && $0.isPickup == pickup }?.at
            }
            for id in result.moved {
                let ride = try #require(byID[id])
                let at = try #require(promisedStop(result.routes, ride), "\(context): moved ride \(id) on no route")
                #expect(at <= ride.ride.promise.window.end.addingTimeInterval(-margin + 1), "\(context): ride \(id) moved without the margin")
            }
            // A waiting ride on time as planned keeps its slack, up to the margin, whatever moved.
            for ride in road.rides
            where ride.progress == .waiting && !result.lateAsPlanned.contains(ride.ride.id) && !result.moved.contains(ride.ride.id) {
                guard let before = promisedStop(result.plannedRoutes, ride), let after = promisedStop(result.routes, ride) else { continue }
                let end = ride.ride.promise.window.end
                let kept = min(margin, end.timeIntervalSince(before))
                #expect(end.timeIntervalSince(after) >= kept - 2, "\(context): ride \(ride.ride.id) gave up its slack for a move")
            }
        }
        #expect(lateDays > 0, "seed \(seed): no day ran late")
    }
}
