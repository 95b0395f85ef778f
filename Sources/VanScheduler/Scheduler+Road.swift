import Foundation
import VanDomain

extension Scheduler {
    /// Re-plans the rest of a day from the road: each van's remaining stops start from where it
    /// is (``VanStart``), riders aboard stay on their vans and keep their planned pickups, and a
    /// ride not yet picked up whose promise its van can no longer keep may move to another van (or
    /// to another place on its own) that keeps it. Nothing moves a promise: windows and ride-time
    /// limits are constraints, never changed.
    ///
    /// How: the routes as planned are driven from the vans' starts with no deadline (what happens
    /// if nobody re-plans). A ride late in that drive keeps its late times as its deadline (it
    /// never gets later than without re-planning), every other ride its promise. Then each late
    /// ride not yet picked up, earliest window first, is taken out and put back at the cheapest
    /// place, on any van, that keeps its own promise and every deadline of the others; if there is
    /// none it goes back where it was. A ride that keeps its promise as planned keeps it after.
    ///
    /// With a `margin` (seconds), a move must be robust to the road's noise: the moved ride is
    /// served at least `margin` before its promised window ends on its new route, and the move
    /// takes no other ride's last `margin` of slack (a ride with less keeps what it has). A move
    /// that would only just make it (a van due in the window's last seconds, late again at the
    /// next check) is not made, so rides do not hop between vans on each projection. With `atRisk`
    /// (seconds), a ride on time as planned but served in its window's last `atRisk` seconds (one
    /// slow leg from late) is tried too, with the late ones in window order, and moves only where
    /// it keeps the margin; it is not late, so it raises no alert.
    ///
    /// With `frozen` (seconds), the frozen horizon: a rider not yet picked up whose pickup opens
    /// within `frozen` of now (her window's start; an arrive-by rider's planned pickup) has been
    /// told when her van comes (her ETA and reminder say so): its time driving the route as
    /// planned from where it is. Re-planning makes her pickup no later than that: no ride, late or
    /// at risk, is put before her on her van, and no stop re-sequenced ahead of her, where it
    /// would delay her van to her (a late ride that fits nowhere else stays late, and its alert
    /// goes to the dispatcher). A told ride may itself move, where another van is due no later
    /// (she is sent its ETA); one late as planned is not held (its planned time is already its
    /// deadline) and may move like any late ride.
    ///
    /// The answer writes new planned times (and vans) only for rides that keep their promise, each
    /// inside its window and ride-time limit, and checks the vans' loads as the database's route
    /// check counts them (planned times; a late ride at its old ones): a van whose written plan
    /// would fail it keeps its old plan. `rides` are the rides holding vans (not completed, not
    /// shown); rides on vans not in `vans` are left alone. Pure: `now` is time zero, no clock read.
    public func replanFromRoad(
        vans: [Van], starts: [Int64: VanStart], rides: [RoadRide], now: Date, margin: TimeInterval = 0,
        atRisk: TimeInterval = 0, frozen: TimeInterval = 0
    ) -> RoadReplan {
        let day = RoadDay(vans: vans, starts: starts, rides: rides, now: now, estimator: estimator)
        let count = day.rides.count
        guard count > 0 else { return RoadReplan() }
        let unlimited = [Double?](repeating: .infinity, count: count)
        let open = day.problem(latestPickup: unlimited, latestDropoff: unlimited, maxRide: unlimited)

        // 1. The routes as planned, driven from the vans' starts: who keeps the promise. A route that
        // cannot be driven in its planned order even late (riders aboard who were to be dropped off
        // before a pickup the van missed would overload it) drops its riders first and takes the
        // rest where they fit; one that still cannot run is left as it is.
        var basePlan = day.plan
        var baseline = Self.times(of: basePlan, in: open, unhurried: nil, from: 0)
        for vehicle in basePlan.routes.indices where !baseline.runs[vehicle] {
            if let repaired = Self.repair(basePlan, vehicle: vehicle, in: open) { basePlan = repaired }
        }
        if basePlan != day.plan { baseline = Self.times(of: basePlan, in: open, unhurried: nil, from: 0) }
        var latestPickup = [Double?](repeating: nil, count: count)
        var latestDropoff = [Double?](repeating: nil, count: count)
        var maxRide = [Double?](repeating: nil, count: count)
        var late: [Int] = [], broken: [Int] = []
        for request in 0..<count {
            guard let times = baseline.times[request] else { continue }  // a van whose route cannot run at all
            if !Self.keeps(day, request, pickup: times.pickup, dropoff: times.dropoff, problem: open) {
                // Its deadline is where the plan puts it now (half a second absorbs float error).
                latestPickup[request] = times.pickup + 0.5
                latestDropoff[request] = times.dropoff + 0.5
                maxRide[request] = times.dropoff - times.pickup - open.nodes[open.requests[request].pickup].serviceDuration + 0.5
                broken.append(request)
                // Late is a window missed; a ride only longer than its limit as driven now (the van
                // picking up at the window's start and waiting with her aboard) is not moved for it.
                if !Self.keeps(day, request, pickup: times.pickup, dropoff: times.dropoff, problem: open, rideTime: false) {
                    late.append(request)
                }
            }
        }
        // The told riders (pickup opening inside the frozen horizon, on time as planned): their
        // pickups no later than as planned (half a second absorbs float error).
        var held = [Double?](repeating: nil, count: count)
        if frozen > 0 {
            for request in 0..<count where latestPickup[request] == nil && day.rides[request].progress == .waiting {
                guard day.strictPickup[request].earliest <= frozen, let times = baseline.times[request] else { continue }
                held[request] = times.pickup + 0.5
            }
        }
        var problem = day.problem(latestPickup: latestPickup, latestDropoff: latestDropoff, maxRide: maxRide, held: held)
        var plan = basePlan
        var relaxed = Set(broken)
        // The slack each ride that keeps its promise must keep through the moves: the margin, or
        // what it has as planned if less (half a second absorbs float error).
        var spare = [Double](repeating: 0, count: count)
        if margin > 0 {
            for request in 0..<count where !relaxed.contains(request) {
                guard let times = baseline.times[request] else { continue }
                let arriveBy = day.rides[request].ride.promise.kind == .arriveBy
                if !arriveBy && day.rides[request].isAboard { continue }
                let slack = arriveBy ? day.strictDropoff[request].latest - times.dropoff : day.strictPickup[request].latest - times.pickup
                spare[request] = min(margin, max(0, slack - 0.5))
            }
        }

        // 2. Each late or at-risk ride not yet picked up, earliest window first: to a place that
        // keeps its promise, on a route whose planned times can say its order. At risk: on time as
        // planned, but served in the window's last `atRisk` seconds.
        var atRiskRides: [Int] = []
        if atRisk > 0 {
            for request in 0..<count where !relaxed.contains(request) && day.rides[request].progress == .waiting {
                guard let times = baseline.times[request] else { continue }
                let arriveBy = day.rides[request].ride.promise.kind == .arriveBy
                let slack = arriveBy ? day.strictDropoff[request].latest - times.dropoff : day.strictPickup[request].latest - times.pickup
                if slack < atRisk { atRiskRides.append(request) }
            }
        }
        let movable = (late + atRiskRides).filter { day.rides[$0].progress == .waiting && baseline.runs[day.vehicleOf[$0]] }
            .sorted { (day.rides[$0].ride.promise.window.start, $0) < (day.rides[$1].ride.promise.window.start, $1) }
        for request in movable {
            var without = plan
            guard let vehicle = without.routes.firstIndex(where: { $0.stops.contains(.pickup(request)) }) else { continue }
            without.routes[vehicle].stops.removeAll { $0.request == request }
            guard RouteEvaluator(problem: problem).isFeasible(without.routes[vehicle]) else { continue }
            var pickup = latestPickup, dropoff = latestDropoff, ride = maxRide
            (pickup[request], dropoff[request], ride[request]) = (nil, nil, nil)
            let strict = day.problem(latestPickup: pickup, latestDropoff: dropoff, maxRide: ride, held: held)
            // The search keeps the margin: the moved ride's, and every other ride's slack.
            var kept = spare
            kept[request] = margin
            let guarded = margin > 0 ? day.problem(latestPickup: pickup, latestDropoff: dropoff, maxRide: ride, spare: kept, held: held) : strict
            without.unassigned = [request]
            let prepared = PreparedRoutes(plan: without, problem: guarded)
            var fixed = relaxed
            fixed.remove(request)
            var excluded = Set<Int>()
            while let option = prepared.bestInsertion(of: request, problem: guarded, excluding: excluded) {
                let candidate = option.applied(to: without, request: request)
                let touched = Set([vehicle, option.vehicle])
                if touched.allSatisfy({ Self.sayable(candidate.routes[$0], in: guarded, fixed: fixed, day, unhurried: unhurriedMargin, from: frozen) }
                ) {
                    plan = candidate
                    problem = strict
                    relaxed = fixed
                    spare = kept
                    (latestPickup, latestDropoff, maxRide) = (pickup, dropoff, ride)
                    break
                }
                excluded.insert(option.vehicle)
            }
        }

        // 3. The new plan's times: a ride that keeps its promise gets planned times saying its
        // route's order; one that does not keeps its own.
        let final = Self.times(of: plan, in: problem, unhurried: unhurriedMargin, from: frozen)
        var unkept = Set<Int>()
        for request in 0..<count {
            guard let times = final.times[request] else { continue }
            if !Self.keeps(day, request, pickup: times.pickup, dropoff: times.dropoff, problem: problem) { unkept.insert(request) }
        }
        var assigned: [Int: PlannedStops] = [:]
        var unsayable = Set<Int64>()
        for (vehicle, route) in plan.routes.enumerated() {
            guard let schedule = final.schedules[vehicle],
                let times = RoadPlannedTimes.assign(route, projected: schedule.serviceStart, fixed: { unkept.contains($0) }, day: day)
            else {
                unsayable.insert(day.vans[vehicle].id)
                continue
            }
            assigned.merge(times) { $1 }
        }
        var result = RoadReplan()
        var planned = day.rides.map(\.ride)
        var written = Set<UUID>()
        for (request, road) in day.rides.enumerated() {
            let ride = road.ride
            if unkept.contains(request) { result.unkept.insert(ride.id) }
            guard final.vehicle[request] >= 0, let stops = assigned[request], Self.passesRouteCheck(ride, stops) else { continue }
            let van = day.vans[final.vehicle[request]].id
            guard van != ride.vanID || stops.pickupAt != ride.pickupAt || stops.dropoffAt != ride.dropoffAt else { continue }
            result.changes[ride.id] = (van, stops)
            if van != ride.vanID { result.moved.insert(ride.id) }
            (planned[request].vanID, planned[request].pickupAt, planned[request].dropoffAt) = (van, stops.pickupAt, stops.dropoffAt)
            written.insert(ride.id)
        }

        // 4. What the database will hold, van by van: its stops in planned order must be the route
        // driven, and its loads must pass the route check. A van where either fails keeps its old
        // plan, with every ride moved to or from it (and so on, to a plan that holds).
        result.routes = Self.stops(of: plan, schedules: final.schedules, day)
        result.plannedRoutes = Self.stops(of: basePlan, schedules: baseline.schedules, day)
        result.lateAsPlanned = Set(late.map { day.rides[$0].ride.id })
        let original = day.rides.map(\.ride)
        var kept = Set(vans.map(\.id))
        var bad = unsayable
        while true {
            bad.formUnion(PlannedLoadCheck.overloaded(planned, written: written, vans: vans).map { id in planned.first { $0.id == id }!.vanID })
            bad.formUnion(Self.outOfOrder(planned, routes: result.routes, rides: day.rides, vans: kept.subtracting(bad)))
            bad.formIntersection(kept)
            guard !bad.isEmpty else { break }
            kept.subtract(bad)
            for index in planned.indices where bad.contains(planned[index].vanID) || bad.contains(original[index].vanID) {
                let id = planned[index].id
                planned[index] = original[index]
                written.remove(id)
                result.changes[id] = nil
                result.moved.remove(id)
                if let old = result.plannedRoutes[original[index].vanID] { result.routes[original[index].vanID] = old }
                if result.lateAsPlanned.contains(id) { result.unkept.insert(id) } else { result.unkept.remove(id) }
            }
            bad = []
        }
        return result
    }

    /// The vans of `vans` whose remaining stops, in the order of `planned` times (a drop-off before
    /// a pickup at one instant), are not the stops of `routes` in their order.
    private static func outOfOrder(_ planned: [BookedRide], routes: [Int64: [RoadStop]], rides: [RoadRide], vans: Set<Int64>) -> Set<Int64> {
        var wrong = Set<Int64>()
        // Stops done or being served take no part in the order.
        let aboard = Set(rides.filter { $0.progress != .waiting }.map(\.ride.id))
        for van in vans {
            var stops: [(at: Date, pickup: Bool, id: UUID)] = []
            for ride in planned where ride.vanID == van {
                if !aboard.contains(ride.id) { stops.append((ride.pickupAt, true, ride.id)) }
                stops.append((max(ride.dropoffAt, ride.pickupAt), false, ride.id))
            }
            stops.sort { a, b in
                if a.at != b.at { return a.at < b.at }
                if a.id == b.id { return a.pickup }
                return a.pickup != b.pickup ? !a.pickup : a.id.uuidString < b.id.uuidString
            }
            let route = (routes[van] ?? []).filter { !($0.isPickup && aboard.contains($0.rideID)) }
            if stops.map(\.id) != route.map(\.rideID) || stops.map(\.pickup) != route.map(\.isPickup) { wrong.insert(van) }
        }
        return wrong
    }

    /// `plan` with `vehicle`'s route rebuilt: the stops it stands at, its riders' drop-offs, then its
    /// other rides one by one, in planned order, each where it costs least; nil if one fits nowhere.
    private static func repair(_ plan: RoutePlan, vehicle: Int, in problem: RoutingProblem) -> RoutePlan? {
        let route = plan.routes[vehicle]
        let prefix = Array(route.stops.prefix(route.lockedPrefixCount))
        let aboard = Set(prefix.map(\.request))
        var rebuilt = plan
        rebuilt.routes[vehicle].stops = prefix + route.stops.dropFirst(prefix.count).filter { aboard.contains($0.request) }
        let others = Set(plan.routes.indices).subtracting([vehicle])
        for stop in route.stops.dropFirst(prefix.count) where stop.kind == .pickup {
            rebuilt.unassigned = [stop.request]
            guard let option = PreparedRoutes(plan: rebuilt, problem: problem).bestInsertion(of: stop.request, problem: problem, excluding: others)
            else { return nil }
            rebuilt = option.applied(to: rebuilt, request: stop.request)
        }
        rebuilt.unassigned = []
        return rebuilt
    }

    /// Whether `route`'s order can be said in planned times, `fixed` requests keeping theirs.
    private static func sayable(
        _ route: VehicleRoute, in problem: RoutingProblem, fixed: Set<Int>, _ day: RoadDay, unhurried: Double?, from: Double
    ) -> Bool {
        guard
            case .success(let schedule) = RouteEvaluator(problem: problem).schedule(
                for: route, earliest: true, unhurried: unhurried, unhurriedFrom: from)
        else {
            return false
        }
        return RoadPlannedTimes.assign(route, projected: schedule.serviceStart, fixed: { fixed.contains($0) }, day: day) != nil
    }

    /// Each van's stops in `plan` at their scheduled times, by van id.
    private static func stops(of plan: RoutePlan, schedules: [RouteSchedule?], _ day: RoadDay) -> [Int64: [RoadStop]] {
        var routes: [Int64: [RoadStop]] = [:]
        for (vehicle, route) in plan.routes.enumerated() {
            guard let schedule = schedules[vehicle] else { continue }
            routes[day.vans[vehicle].id] = zip(route.stops, schedule.serviceStart).map { stop, at in
                RoadStop(rideID: day.rides[stop.request].ride.id, isPickup: stop.kind == .pickup, at: day.date(at))
            }
        }
        return routes
    }

    /// Each request's service times and vehicle in `plan` (nil on a route that cannot run), and
    /// whether each vehicle's route runs.
    /// Stretches starting within `from` seconds of now stay as early as they can be (their riders were told).
    private static func times(of plan: RoutePlan, in problem: RoutingProblem, unhurried: Double?, from: Double)
        -> (times: [(pickup: Double, dropoff: Double)?], vehicle: [Int], runs: [Bool], schedules: [RouteSchedule?])
    {
        let evaluator = RouteEvaluator(problem: problem)
        var times = [(pickup: Double, dropoff: Double)?](repeating: nil, count: problem.requests.count)
        var vehicle = [Int](repeating: -1, count: problem.requests.count)
        var runs = [Bool](repeating: false, count: plan.routes.count)
        var schedules = [RouteSchedule?](repeating: nil, count: plan.routes.count)
        for (index, route) in plan.routes.enumerated() {
            guard case .success(let schedule) = evaluator.schedule(for: route, earliest: true, unhurried: unhurried, unhurriedFrom: from) else {
                continue
            }
            runs[index] = true
            schedules[index] = schedule
            var pickups: [Int: Double] = [:]
            for (position, stop) in route.stops.enumerated() {
                vehicle[stop.request] = index
                if stop.kind == .pickup {
                    pickups[stop.request] = schedule.serviceStart[position]
                } else if let pickup = pickups[stop.request] {
                    times[stop.request] = (pickup, schedule.serviceStart[position])
                }
            }
        }
        return (times, vehicle, runs, schedules)
    }

    /// Whether service at these times keeps request `request`'s windows and (with `rideTime`) its ride-time limit.
    private static func keeps(
        _ day: RoadDay, _ request: Int, pickup: Double, dropoff: Double, problem: RoutingProblem,
        rideTime: Bool = true
    ) -> Bool {
        let slack = 1e-6
        let boarding = problem.nodes[problem.requests[request].pickup].serviceDuration
        return pickup >= day.strictPickup[request].earliest - slack && pickup <= day.strictPickup[request].latest + slack
            && dropoff >= day.strictDropoff[request].earliest - slack && dropoff <= day.strictDropoff[request].latest + slack
            && (!rideTime || dropoff - pickup - boarding <= day.strictRide[request] + slack)
    }

    /// Whether planned stops pass the database's route check for the ride alone: the promised stop
    /// inside its window, the drop-off not before the pickup, the ride within its limit.
    static func passesRouteCheck(_ ride: BookedRide, _ stops: PlannedStops) -> Bool {
        ride.promise.isKept(pickupAt: stops.pickupAt, dropoffAt: stops.dropoffAt)
            && stops.dropoffAt >= stops.pickupAt
            && stops.dropoffAt.timeIntervalSince(stops.pickupAt) <= ride.maxRideTime
    }

    private static func clamp(_ date: Date, _ window: DateInterval) -> Date {
        min(max(date, window.start), window.end)
    }
}
