import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanScheduler

/// `Scheduler.replanFromRoad` with a frozen horizon: a rider whose pickup opens within it has been
/// told when her van comes, and re-planning makes it no later, whatever else runs late. Places on
/// a line north of SSS (a kilometre is 234 s of driving).
@Suite struct RoadReplanFrozenTests {
    let now = local(2026, 11, 23, 16)
    let scheduler = Scheduler(hours: Fixture.hours)
    let horizon: TimeInterval = 20 * 60

    func at(_ meters: Double) -> Coordinate { Fixture.north(of: RouteOracleTests.places[0], meters: meters) }

    /// Van 1 at 1,000 m with one rider, R, told: picked up at 0 m from `lead` + 400 s (van 1 waits
    /// there for her window) to −2,000 m. Van 2, held up an hour, has X, from 600 m to 300 m in a
    /// window from `lead` + 300 s to `lead` + 700 s: late as planned. On van 1 X is cheapest ahead
    /// of R (on her way, no added driving), which delays R; with `van3`, an empty van at 1,600 m
    /// takes X on time too, for 1.3 km more.
    func replan(lead: TimeInterval = 0, van3: Bool, frozen: TimeInterval) -> (result: RoadReplan, r: BookedRide, x: BookedRide) {
        let r = BookedRide(
            id: Fixture.uuid(1), vanID: 1, pickupAt: now.addingTimeInterval(lead + 400), dropoffAt: now.addingTimeInterval(lead + 1_000),
            pickup: at(0), dropoff: at(-2_000),
            promise: RidePromise(kind: .pickup, asked: now.addingTimeInterval(lead + 400), width: 900), maxRideTime: 3_600)
        let x = BookedRide(
            id: Fixture.uuid(2), vanID: 2, pickupAt: now.addingTimeInterval(lead + 300), dropoffAt: now.addingTimeInterval(lead + 500),
            pickup: at(600), dropoff: at(300),
            promise: RidePromise(kind: .pickup, asked: now.addingTimeInterval(lead + 300), width: 400), maxRideTime: 3_600)
        var vans = [Fixture.van(1), Fixture.van(2)]
        var starts = [Int64(1): VanStart(place: at(1_000), at: now), 2: VanStart(place: at(600), at: now.addingTimeInterval(lead + 3_600))]
        if van3 {
            vans.append(Fixture.van(3))
            starts[3] = VanStart(place: at(1_600), at: now)
        }
        let result = scheduler.replanFromRoad(
            vans: vans, starts: starts, rides: [RoadRide(r), RoadRide(x)], now: now,
            margin: 120, atRisk: 60, frozen: frozen)
        return (result, r, x)
    }

    static func pickup(_ id: UUID, in routes: [Int64: [RoadStop]]) -> (van: Int64, at: Date)? {
        for (van, stops) in routes {
            if let stop = stops.first(where: { $0.rideID == id && $0.isPickup }) { return (van, stop.at) }
        }
        return nil
    }

    @Test func withoutTheHorizonTheLateRideGoesAheadOfTheToldRider() throws {
        let (result, r, x) = replan(van3: true, frozen: 0)
        #expect(result.lateAsPlanned == [x.id])
        #expect(result.moved == [x.id] && result.changes[x.id]?.vanID == 1, "the cheapest place: van 1, on its way")
        let told = try #require(Self.pickup(r.id, in: result.plannedRoutes))
        let after = try #require(Self.pickup(r.id, in: result.routes))
        #expect(told.at == now.addingTimeInterval(400))
        #expect(after.at > told.at.addingTimeInterval(120), "R's van comes minutes after the time she was told")
    }

    @Test func aToldRiderKeepsHerTimeWhereAnotherVanKeepsTheLateRidesPromise() throws {
        let (result, r, x) = replan(van3: true, frozen: horizon)
        #expect(result.moved == [x.id])
        #expect(result.changes[x.id]?.vanID == 3, "van 3 takes X, for more driving")
        let change = try #require(result.changes[x.id])
        #expect(x.promise.isKept(pickupAt: change.stops.pickupAt, dropoffAt: change.stops.dropoffAt))
        let told = try #require(Self.pickup(r.id, in: result.plannedRoutes))
        let after = try #require(Self.pickup(r.id, in: result.routes))
        #expect(after.van == 1 && after.at <= told.at, "R's van comes when she was told")
    }

    @Test func aLateRideThatFitsOnlyAheadOfAToldRiderStaysLateAndAlerted() throws {
        let (result, r, x) = replan(van3: false, frozen: horizon)
        #expect(result.moved.isEmpty && result.changes[x.id] == nil, "frozen: nothing goes ahead of R that delays her")
        #expect(result.unkept == [x.id] && result.lateAsPlanned == [x.id], "X stays as planned, late: the dispatcher's alert")
        let told = try #require(Self.pickup(r.id, in: result.plannedRoutes))
        let after = try #require(Self.pickup(r.id, in: result.routes))
        #expect(after.van == 1 && after.at == told.at)
    }

    @Test func aRiderBeyondTheHorizonIsNotHeld() throws {
        // The same day 25 minutes later: R's window opens 31 minutes from now, past the 20-minute horizon.
        let (result, r, x) = replan(lead: 1_500, van3: true, frozen: horizon)
        #expect(result.moved == [x.id] && result.changes[x.id]?.vanID == 1)
        let told = try #require(Self.pickup(r.id, in: result.plannedRoutes))
        let after = try #require(Self.pickup(r.id, in: result.routes))
        #expect(after.at > told.at.addingTimeInterval(120))
    }

    /// The random days of ``RoadReplanPropertyTests`` (driven part-way with random delays), with
    /// the product's margin, rides at risk and a 20-minute horizon: every guarantee of
    /// ``RoadReplanPropertyTests/check`` holds, and a told rider (waiting, on time as planned, her
    /// pickup opening within the horizon) is picked up no later than as planned, on whatever van.
    /// Without the horizon the same days pick some told riders up later (the check is not vacuous).
    @Test func toldRidersKeepTheirTimesOnRandomDays() throws {
        var told = 0, delayedWithout = 0
        for seed in 0..<8 {
            var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 25)
            for trial in 0..<20 {
                let (scheduler, vans, booked) = DayImprovementPropertyTests.randomDay(&rng)
                guard !booked.isEmpty else { continue }
                let road = RoadReplanPropertyTests.randomRoad(booked, vans: vans, &rng)
                let context = "seed \(seed) trial \(trial), frozen"
                let result = scheduler.replanFromRoad(
                    vans: vans, starts: road.starts, rides: road.rides, now: road.now, margin: 120, atRisk: 60,
                    frozen: horizon)
                _ = RoadReplanPropertyTests.check(result, road: road, vans: vans, estimator: scheduler.estimator, context)
                let open = scheduler.replanFromRoad(vans: vans, starts: road.starts, rides: road.rides, now: road.now, margin: 120, atRisk: 60)
                for ride in road.rides where ride.progress == .waiting && !result.lateAsPlanned.contains(ride.ride.id) {
                    let opens = ride.ride.promise.kind == .pickup ? ride.ride.promise.window.start : ride.ride.pickupAt
                    guard opens <= road.now.addingTimeInterval(horizon), let before = Self.pickup(ride.ride.id, in: result.plannedRoutes) else {
                        continue
                    }
                    told += 1
                    if let without = Self.pickup(ride.ride.id, in: open.routes), without.at > before.at.addingTimeInterval(1) { delayedWithout += 1 }
                    let after = try #require(Self.pickup(ride.ride.id, in: result.routes), "\(context): told ride \(ride.ride.id) on no route")
                    #expect(
                        after.at <= before.at.addingTimeInterval(1),
                        "\(context): told ride \(ride.ride.id) picked up \(after.at.timeIntervalSince(before.at)) s later than she was told")
                }
            }
        }
        #expect(told > 50, "few told riders: \(told)")
        #expect(delayedWithout > 0, "without the horizon no told rider was picked up later: the check would pass without the rule")
    }
}
