import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanScheduler

/// `Scheduler.replanFromRoad` on random days driven part-way with random delays: some rides done,
/// some aboard, vans late by random amounts at random places. Checked here from the rules, not
/// from the engine: a done stop never moves, promises never change, every rule the database's
/// route check applies holds for what is written, the re-planned routes can be driven, and a ride
/// whose promise its van keeps as planned keeps it after.
@Suite struct RoadReplanPropertyTests {
    @Test(arguments: 0..<24)
    func replanningKeepsDoneStopsPromisesAndTheRouteCheck(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 25)
        var lateDays = 0, movedRides = 0, keptLate = 0
        for trial in 0..<20 {
            let (scheduler, vans, booked) = DayImprovementPropertyTests.randomDay(&rng)
            guard !booked.isEmpty else { continue }
            let road = Self.randomRoad(booked, vans: vans, &rng)
            let result = scheduler.replanFromRoad(vans: vans, starts: road.starts, rides: road.rides, now: road.now)
            let context = "seed \(seed) trial \(trial)"
            let report = Self.check(result, road: road, vans: vans, estimator: scheduler.estimator, context)
            if report.lateBefore > 0 { lateDays += 1 }
            movedRides += result.moved.count
            keptLate += report.lateKeptAfter
        }
        // Not vacuous: days ran late, and re-planning moved rides and kept some late promises.
        #expect(lateDays > 0, "seed \(seed): no day ran late")
        #expect(movedRides + keptLate > 0, "seed \(seed): re-planning never helped a late ride")
    }

    /// A van late at a campus place whose ride it would serve late, and an idle van near the
    /// pickup: the ride moves to the idle van, inside its window; the late van's rider aboard stays.
    /// The same guarantees with vans planned to wait empty (``Scheduler/unhurriedMargin``), and with
    /// a frozen horizon: the unhurried stretches keep every promise the earliest schedule keeps.
    @Test(arguments: 0..<8)
    func unhurriedReplanningKeepsTheSameGuarantees(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 77)
        for trial in 0..<20 {
            var (scheduler, vans, booked) = DayImprovementPropertyTests.randomDay(&rng)
            guard !booked.isEmpty else { continue }
            scheduler.unhurriedMargin = 300
            let road = Self.randomRoad(booked, vans: vans, &rng)
            let result = scheduler.replanFromRoad(vans: vans, starts: road.starts, rides: road.rides, now: road.now, margin: 120, frozen: 1_200)
            _ = Self.check(result, road: road, vans: vans, estimator: scheduler.estimator, "seed \(seed) trial \(trial), unhurried")
        }
    }

    @Test func aLateRideMovesToAVanThatKeepsItsPromise() throws {
        let places = RouteOracleTests.places
        let now = local(2026, 11, 23, 16)
        let scheduler = Scheduler(hours: Fixture.hours)
        let vans = [Fixture.van(1), Fixture.van(2)]
        let aboard = BookedRide(
            id: Fixture.uuid(1), vanID: 1, pickupAt: now.addingTimeInterval(-600), dropoffAt: now.addingTimeInterval(300),
            pickup: places[0], dropoff: places[1],
            promise: RidePromise(kind: .pickup, asked: now.addingTimeInterval(-600), width: 900), maxRideTime: 3_600)
        let waiting = BookedRide(
            id: Fixture.uuid(2), vanID: 1, pickupAt: now.addingTimeInterval(900), dropoffAt: now.addingTimeInterval(1_500),
            pickup: places[2], dropoff: places[3],
            promise: RidePromise(kind: .pickup, asked: now.addingTimeInterval(900), width: 900), maxRideTime: 3_600)
        // Van 1 is held up for an hour with its rider aboard; van 2 stands at the waiting rider's pickup.
        let starts = [Int64(1): VanStart(place: places[0], at: now.addingTimeInterval(3_600)), 2: VanStart(place: places[2], at: now)]
        let rides = [RoadRide(aboard, progress: .aboard(boardedAt: now.addingTimeInterval(-300))), RoadRide(waiting)]
        let result = scheduler.replanFromRoad(vans: vans, starts: starts, rides: rides, now: now)
        #expect(result.moved == [waiting.id])
        let change = try #require(result.changes[waiting.id])
        #expect(change.vanID == 2)
        #expect(waiting.promise.isKept(pickupAt: change.stops.pickupAt, dropoffAt: change.stops.dropoffAt))
        #expect(result.changes[aboard.id] == nil, "the aboard ride, an hour late, is left as planned")
        #expect(result.unkept == [aboard.id])
        #expect(result.routes[1]?.map(\.rideID) == [aboard.id, aboard.id])
    }

    /// The same day without the hold-up: nothing is late, nothing moves.
    @Test func onTimeVansKeepTheirRides() throws {
        let places = RouteOracleTests.places
        let now = local(2026, 11, 23, 16)
        let scheduler = Scheduler(hours: Fixture.hours)
        let waiting = BookedRide(
            id: Fixture.uuid(2), vanID: 1, pickupAt: now.addingTimeInterval(900), dropoffAt: now.addingTimeInterval(1_500),
            pickup: places[2], dropoff: places[3],
            promise: RidePromise(kind: .pickup, asked: now.addingTimeInterval(900), width: 900), maxRideTime: 3_600)
        let result = scheduler.replanFromRoad(
            vans: [Fixture.van(1), Fixture.van(2)],
            starts: [1: VanStart(place: places[0], at: now), 2: VanStart(place: places[4], at: now)],
            rides: [RoadRide(waiting)], now: now)
        #expect(result.moved.isEmpty && result.unkept.isEmpty)
        #expect(result.changes[waiting.id].map { $0.vanID } ?? 1 == 1)
    }

    // MARK: Random roads

    struct Road {
        var now: Date
        var starts: [Int64: VanStart]
        var rides: [RoadRide]
    }

    /// "Now" somewhere in the day; rides planned to be dropped off before it are mostly done (gone),
    /// else still waiting (the van never came); rides planned to be under way are aboard or still
    /// waiting (the van running late); and each van starts late by up to 40 minutes at a campus
    /// place, or at an unknown one.
    static func randomRoad(_ booked: [BookedRide], vans: [Van], _ rng: inout SeededGenerator) -> Road {
        let first = booked.map(\.pickupAt).min()!, last = booked.map(\.dropoffAt).max()!
        let now = first.addingTimeInterval(Double(Int.random(in: -10...Int(max(0, last.timeIntervalSince(first)) / 60), using: &rng) * 60))
        var rides: [RoadRide] = []
        var standing = Set<Int64>()
        for ride in booked {
            if ride.dropoffAt < now, Int.random(in: 0..<4, using: &rng) > 0 { continue }  // done
            if ride.pickupAt < now, ride.dropoffAt > now, Bool.random(using: &rng) {
                let boarded = min(now, ride.pickupAt.addingTimeInterval(Double(Int.random(in: 0...600, using: &rng))))
                rides.append(RoadRide(ride, progress: .aboard(boardedAt: boarded)))
            } else if ride.pickupAt < now, !standing.contains(ride.vanID), Int.random(in: 0..<4, using: &rng) == 0 {
                standing.insert(ride.vanID)
                rides.append(RoadRide(ride, progress: .arrived))
            } else {
                rides.append(RoadRide(ride))
            }
        }
        var starts: [Int64: VanStart] = [:]
        for van in vans {
            let lateness = Double(Int.random(in: 0...40, using: &rng) * 60)
            let standingAt = rides.first { $0.ride.vanID == van.id && $0.progress == .arrived }?.ride.pickup
            let place = standingAt ?? (Int.random(in: 0..<5, using: &rng) == 0 ? nil : RouteOracleTests.places.randomElement(using: &rng)!)
            starts[van.id] = VanStart(place: place, at: now.addingTimeInterval(lateness))
        }
        return Road(now: now, starts: starts, rides: rides)
    }

    // MARK: The checker, from the rules

    struct Report {
        /// Rides late if the vans drive their routes as planned.
        var lateBefore = 0
        /// Of those, rides whose promise the re-plan keeps.
        var lateKeptAfter = 0
        /// Rides on vans whose routes cannot run at all (left untouched).
        var frozen = 0
    }

    /// Drive time between two places: nothing from an unknown van start ("anywhere") or to the
    /// same place, the estimator's deadhead otherwise.
    static func drive(_ from: Coordinate?, _ to: Coordinate?, fromAnywhere: Bool, _ e: TripEstimator) -> Double {
        if fromAnywhere || from == to { return 0 }
        return e.deadhead(from: from, to: to)
    }

    static func boarding(_ ride: BookedRide, _ e: TripEstimator) -> Double { ride.wheelchair ? e.wheelchairBoarding : e.boarding }
    static func alighting(_ ride: BookedRide, _ e: TripEstimator) -> Double { ride.wheelchair ? e.wheelchairAlighting : e.alighting }

    /// Whether a ride served at these times keeps its promise: the promised stop inside its window
    /// and the ride, from the pickup as the database counts it (the planned one once aboard), within its limit.
    /// `margin` is taken off the limit (the engine keeps a second for rounding planned times).
    static func keeps(_ road: RoadRide, pickup: Date, dropoff: Date, margin: Double = 0) -> Bool {
        let ride = road.ride
        let from = road.isAboard ? ride.pickupAt : pickup
        let promised = ride.promise.kind == .pickup ? (road.isAboard ? ride.pickupAt : pickup) : dropoff
        return ride.promise.window.contains(promised) && dropoff.timeIntervalSince(from) <= ride.maxRideTime - margin + 1e-6
    }

    /// Whether a van carrying these stops in this order never holds more than its seats and
    /// wheelchair positions.
    static func loadFits(_ stops: [(ride: BookedRide, pickup: Bool)], van: Van) -> Bool {
        var seats = 0, chairs = 0
        for (ride, pickup) in stops {
            let sign = pickup ? 1 : -1
            seats += sign * Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions)
            chairs += sign * (ride.wheelchair ? 1 : 0)
            if seats > van.seats || chairs > van.wheelchairPositions { return false }
        }
        return true
    }

    static func check(_ result: RoadReplan, road: Road, vans: [Van], estimator e: TripEstimator, _ context: String) -> Report {
        var report = Report()
        let byID = Dictionary(uniqueKeysWithValues: road.rides.map { ($0.ride.id, $0) })
        let vanByID = Dictionary(uniqueKeysWithValues: vans.map { ($0.id, $0) })

        // Done stops never move; changes name known rides.
        for (id, change) in result.changes {
            guard let rideOnRoad = byID[id] else {
                Issue.record("\(context): a change to a ride not on the road")
                continue
            }
            if rideOnRoad.progress != .waiting {
                #expect(change.vanID == rideOnRoad.ride.vanID, "\(context): ride \(id) under way changed van")
            }
            if rideOnRoad.isAboard {
                #expect(change.stops.pickupAt == rideOnRoad.ride.pickupAt, "\(context): ride \(id) aboard had its pickup moved")
            }
        }
        #expect(result.moved.isSubset(of: Set(result.changes.keys)), "\(context): a moved ride with no change")
        #expect(result.unkept.isDisjoint(with: Set(result.changes.keys)), "\(context): an unkept ride's plan changed")

        // The database's route check, on the planned times after the write (as vand_check_route in
        // sql/0027: each written ride's promised stop inside its window, its ride within its limit,
        // and at each stop while it is aboard, the van's planned load within its seats and positions).
        var planned = road.rides.map(\.ride)
        for index in planned.indices {
            guard let change = result.changes[planned[index].id] else { continue }
            (planned[index].vanID, planned[index].pickupAt, planned[index].dropoffAt) = (change.vanID, change.stops.pickupAt, change.stops.dropoffAt)
        }
        for ride in planned where result.changes[ride.id] != nil {
            #expect(
                ride.promise.window.contains(ride.promise.kind == .pickup ? ride.pickupAt : ride.dropoffAt),
                "\(context): ride \(ride.id) planned outside its window")
            #expect(ride.dropoffAt.timeIntervalSince(ride.pickupAt) <= ride.maxRideTime, "\(context): ride \(ride.id) planned too long")
            guard let van = vanByID[ride.vanID] else {
                Issue.record("\(context): ride \(ride.id) on an unknown van")
                continue
            }
            let overlapping = planned.filter { $0.vanID == ride.vanID && $0.pickupAt < ride.dropoffAt && $0.dropoffAt > ride.pickupAt }
            let events = overlapping.flatMap { other -> [(Date, Int, Int, String)] in
                let seats = Ride.seats(wheelchair: other.wheelchair, companions: other.companions), chairs = other.wheelchair ? 1 : 0
                return [(other.pickupAt, seats, chairs, other.id.uuidString), (other.dropoffAt, -seats, -chairs, other.id.uuidString)]
            }.sorted { ($0.0, $0.1, $0.3) < ($1.0, $1.1, $1.3) }
            var seats = 0, chairs = 0
            for (at, addSeats, addChairs, _) in events {
                seats += addSeats
                chairs += addChairs
                if at >= ride.pickupAt && at < ride.dropoffAt {
                    #expect(seats <= van.seats && chairs <= van.wheelchairPositions, "\(context): van \(van.id) planned overloaded at \(at)")
                }
            }
        }

        // The re-planned routes: every ride once, on a van that can take it, pickup before drop-off,
        // drivable from the van's start, never overloaded; rides under way on their own vans.
        var served: [UUID: (van: Int64, pickup: Date?, dropoff: Date?)] = [:]
        for (vanID, stops) in result.routes {
            guard let van = vanByID[vanID], let start = road.starts[vanID] else { continue }
            var place = start.place, anywhere = start.place == nil, free = start.at
            var seats = 0, chairs = 0
            for stop in stops {
                guard let rideOnRoad = byID[stop.rideID] else {
                    Issue.record("\(context): an unknown ride on van \(vanID)")
                    continue
                }
                let ride = rideOnRoad.ride
                let aboardPickup = stop.isPickup && rideOnRoad.isAboard
                let at = aboardPickup ? place : (stop.isPickup ? ride.pickup : ride.dropoff)
                let arrive = aboardPickup ? free : free + drive(place, at, fromAnywhere: anywhere, e)
                #expect(stop.at.timeIntervalSince(arrive) >= -1, "\(context): van \(vanID) cannot reach \(stop.rideID) by \(stop.at)")
                if stop.isPickup, !rideOnRoad.isAboard {
                    // The driver waits for the window to open, or an arrive-by rider's planned pickup.
                    #expect(
                        stop.at >= (ride.promise.kind == .pickup ? ride.promise.window.start : ride.pickupAt),
                        "\(context): a pickup before its window opens")
                }
                let service = aboardPickup ? 0 : (stop.isPickup ? boarding(ride, e) : alighting(ride, e))
                free = stop.at.addingTimeInterval(service)
                if !aboardPickup { (place, anywhere) = (at, false) }
                let sign = stop.isPickup ? 1 : -1
                seats += sign * Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions)
                chairs += sign * (ride.wheelchair ? 1 : 0)
                #expect(seats <= van.seats && chairs <= van.wheelchairPositions, "\(context): van \(vanID) overloaded on the road")
                var entry = served[ride.id] ?? (vanID, nil, nil)
                #expect(entry.van == vanID, "\(context): ride \(ride.id) split between vans")
                if stop.isPickup {
                    #expect(entry.pickup == nil, "\(context): ride \(ride.id) picked up twice")
                    entry.pickup = stop.at
                } else {
                    #expect(entry.pickup != nil && entry.dropoff == nil, "\(context): ride \(ride.id) dropped off before pickup or twice")
                    entry.dropoff = stop.at
                }
                served[ride.id] = entry
            }
        }
        for rideOnRoad in road.rides {
            let id = rideOnRoad.ride.id
            guard let entry = served[id], let pickup = entry.pickup, let dropoff = entry.dropoff else {
                // Only a van whose route cannot run at all is left out, and then untouched.
                #expect(result.routes[rideOnRoad.ride.vanID] == nil && result.changes[id] == nil, "\(context): ride \(id) is on no route")
                #expect(!result.changes.values.contains { $0.vanID == rideOnRoad.ride.vanID }, "\(context): a ride moved to a van that cannot run")
                report.frozen += 1
                continue
            }
            if rideOnRoad.progress != .waiting { #expect(entry.van == rideOnRoad.ride.vanID, "\(context): ride \(id) under way left its van") }
            if let change = result.changes[id] {
                #expect(change.vanID == entry.van, "\(context): ride \(id) written on another van than it rides")
                #expect(keeps(rideOnRoad, pickup: pickup, dropoff: dropoff), "\(context): ride \(id) written but late on the road")
            }
        }

        // A ride whose promise the planned routes keep, driven from the vans' starts, keeps it after.
        for (vanID, start) in road.starts {
            let mine = road.rides.filter { $0.ride.vanID == vanID }
            var stops: [(road: RoadRide, pickup: Bool, order: (Int, Date, Int, String))] = []
            for ride in mine {
                let phase = ride.isAboard ? 0 : (ride.progress == .arrived ? 1 : 2)
                stops.append(
                    (ride, true, (phase, ride.isAboard || ride.progress == .arrived ? .distantPast : ride.ride.pickupAt, 1, ride.ride.id.uuidString)))
                stops.append((ride, false, (2, max(ride.ride.dropoffAt, ride.ride.pickupAt), 0, ride.ride.id.uuidString)))
            }
            stops.sort { a, b in
                if a.order.0 != b.order.0 { return a.order.0 < b.order.0 }
                if a.order.1 != b.order.1 { return a.order.1 < b.order.1 }
                if a.road.ride.id == b.road.ride.id { return a.pickup }
                return (a.order.2, a.order.3) < (b.order.2, b.order.3)
            }
            // A plan the van cannot drive in its order (it would carry more than its seats or
            // positions, e.g. a rider it missed before others boarded) promises nothing as planned:
            // the engine repairs such a route first, so its rides are not checked against it.
            guard let van = vanByID[vanID], Self.loadFits(stops.map { ($0.road.ride, $0.pickup) }, van: van) else { continue }
            var place = start.place, anywhere = start.place == nil, free = start.at
            var pickups: [UUID: Date] = [:]
            for stop in stops {
                let ride = stop.road.ride
                if stop.pickup && stop.road.isAboard {
                    pickups[ride.id] = free
                    continue
                }
                let at = stop.pickup ? ride.pickup : ride.dropoff
                var time = free + drive(place, at, fromAnywhere: anywhere, e)
                if stop.pickup { time = max(time, ride.promise.kind == .pickup ? ride.promise.window.start : ride.pickupAt) }
                if !stop.pickup, ride.promise.kind == .arriveBy { time = max(time, ride.promise.window.start) }
                free = time.addingTimeInterval(stop.pickup ? boarding(ride, e) : alighting(ride, e))
                (place, anywhere) = (at, false)
                if stop.pickup {
                    pickups[ride.id] = time
                    continue
                }
                let keptAsPlanned = keeps(stop.road, pickup: pickups[ride.id]!, dropoff: time, margin: 1)
                if keptAsPlanned {
                    #expect(!result.unkept.contains(ride.id), "\(context): ride \(ride.id) kept as planned but left unkept")
                    if let entry = served[ride.id], let p = entry.pickup, let d = entry.dropoff {
                        #expect(keeps(stop.road, pickup: p, dropoff: d), "\(context): ride \(ride.id) kept as planned is late after re-planning")
                    }
                } else {
                    report.lateBefore += 1
                    if result.changes[ride.id] != nil { report.lateKeptAfter += 1 }
                }
            }
        }
        return report
    }
}
