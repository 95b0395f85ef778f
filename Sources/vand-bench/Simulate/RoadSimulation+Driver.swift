import Foundation
import VanDomain
import VanPostgres
import VanScheduler
import VanServices

extension RoadSimulation {
    /// One step of a van's driver at `now`; when the driver acts next (nil: never).
    func step(
        _ van: inout SimulatedVan, now: Date, estimator: TripEstimator, etas: ETAService, rng: inout SeededGenerator, log: inout Log
    ) async throws -> Date? {
        switch van.phase {
        case .idle:
            let run = try await desk.run(driver: van.driver, now: now)
            guard let next = run.first else {
                if let place = van.place { try await post(place, of: van, etas: etas, now: now, log: &log) }
                return now.addingTimeInterval(Self.idleLook)
            }
            if next.arrivedAt != nil { return try await arrive(&van, at: next, now: now, estimator: estimator, log: &log) }
            return depart(&van, to: next, from: van.place ?? next.place, now: now, estimator: estimator, rng: &rng)
        case .driving(let leg):
            if now >= leg.arrives {
                van.driving += leg.arrives.timeIntervalSince(leg.departed)
                van.place = leg.to.place
                try await post(leg.to.place, of: van, etas: etas, now: now, log: &log)
                return try await arrive(&van, at: leg.to, now: now, estimator: estimator, log: &log)
            }
            let here = leg.position(at: now)
            try await post(here, of: van, etas: etas, now: now, log: &log)
            let run = try await desk.run(driver: van.driver, now: now)
            if let first = run.first, first.rideID == leg.to.rideID, first.pickup == leg.to.pickup {
                return min(leg.arrives, now.addingTimeInterval(Self.positionEvery))
            }
            // The run changed under the driver (a ride moved or cancelled): on from here.
            van.driving += now.timeIntervalSince(leg.departed)
            van.place = here
            van.phase = .idle
            guard let first = run.first else { return now }
            return depart(&van, to: first, from: here, now: now, estimator: estimator, rng: &rng)
        case .early(let stop):
            // The phone keeps sending the van's place while the driver waits for the window.
            let opens = opens(stop)
            if now < opens {
                try await post(stop.place, of: van, etas: etas, now: now, log: &log)
                // Re-planning may give the van an earlier stop, or take this one away.
                let run = try await desk.run(driver: van.driver, now: now)
                guard let first = run.first, first.rideID == stop.rideID, first.pickup == stop.pickup else {
                    van.endWaitAboard(now)
                    van.phase = .idle
                    return now
                }
                return min(opens, now.addingTimeInterval(Self.positionEvery))
            }
            van.endWaitAboard(now)
            return try await arrive(&van, at: stop, now: now, estimator: estimator, log: &log)
        case .boarding(let stop):
            try await tap(van, stop, .boarded, now: now, log: &log)
            van.aboard.insert(stop.rideID)
            van.phase = .idle
            return now
        case .waitingForRider(let stop):
            // The wait runs from the later of the arrival and the window's start, as the services count it.
            let run = try await desk.run(driver: van.driver, now: now)
            if let from = run.first(where: { $0.rideID == stop.rideID && $0.pickup })?.noShowFrom, from > now {
                return from.addingTimeInterval(1)
            }
            if let refusal = try await desk.tap(driver: van.driver, ride: stop.rideID, pickup: true, action: .noShow, at: stop.place, now: now) {
                // The van came late: the rule gives the driver no no-show; the dispatcher records it.
                log.refusals.append("no-show: \(refusal)")
                _ = try? await services.dispatch.noShow(stop.rideID.uuidString, actor: "dispatcher", now: now)
                log.dispatcherNoShows += 1
            } else {
                log.noShowTaps += 1
            }
            if options.etaTrace { log.noShows.insert(stop.rideID) }
            van.phase = .idle
            return now
        case .alighting(let stop):
            let dropped = try await tap(van, stop, .droppedOff, now: now, log: &log)
            // She booked her way back as a will-call: she says she is ready after her stay.
            if dropped, log.willCallRides.contains(stop.rideID), let index = log.requestOf[stop.rideID] {
                log.readyDue.append((stop.rideID, now.addingTimeInterval(fates.stay[index])))
            }
            van.aboard.remove(stop.rideID)
            van.phase = .idle
            return now
        }
    }

    /// Starts the drive to `stop`: the model's time × (1 + `--bias`), drawn log-normal with the
    /// day's coefficient of variation.
    private func depart(
        _ van: inout SimulatedVan, to stop: DeskStop, from place: Coordinate, now: Date, estimator: TripEstimator,
        rng: inout SeededGenerator
    ) -> Date {
        let model = place == stop.place ? 0 : estimator.deadhead(from: place, to: stop.place)
        let drawn = model > 0 ? Self.logNormal(mean: model * (1 + options.bias), cv: options.noise, &rng).rounded() : 0
        let leg = SimulatedVan.Leg(from: place, to: stop, departed: now, arrives: now.addingTimeInterval(drawn))
        van.phase = .driving(leg)
        return min(leg.arrives, now.addingTimeInterval(Self.positionEvery))
    }

    /// When the driver serves a pickup: at its window's start (an arrive-by rider's, her planned
    /// pickup); with vans waiting empty (`--unhurried`), at its planned time, not before.
    func opens(_ stop: DeskStop) -> Date {
        guard stop.promise.kind == .pickup else { return stop.plannedAt }
        return options.unhurried == nil ? stop.promise.window.start : max(stop.promise.window.start, stop.plannedAt)
    }

    /// The van is at `stop`: the driver taps (waiting first for a pickup window to open).
    private func arrive(_ van: inout SimulatedVan, at stop: DeskStop, now: Date, estimator: TripEstimator, log: inout Log) async throws -> Date {
        let run = try await desk.run(driver: van.driver, now: now)
        guard let current = run.first(where: { $0.rideID == stop.rideID && $0.pickup == stop.pickup }) else {
            van.phase = .idle  // moved to another van or cancelled while the van came
            return now
        }
        if current.pickup {
            let opens = opens(current)
            if current.arrivedAt == nil {
                if now < opens {
                    van.phase = .early(current)
                    if !van.aboard.isEmpty, van.waitingAboardSince == nil { van.waitingAboardSince = now }
                    return min(opens, now.addingTimeInterval(Self.positionEvery))
                }
                try await tap(van, current, .arrived, now: now, log: &log)
            }
            if let index = log.requestOf[current.rideID], fates.noShow[index] {
                van.phase = .waitingForRider(current)
                return max(current.arrivedAt ?? now, opens).addingTimeInterval(Self.noShowWait + 1)
            }
            van.phase = .boarding(current)
            return now.addingTimeInterval(dwell(current.wheelchair ? estimator.wheelchairBoarding : estimator.boarding, at: current, log: log))
        }
        if current.arrivedAt == nil { try await tap(van, current, .arrived, now: now, log: &log) }
        van.phase = .alighting(current)
        return now.addingTimeInterval(dwell(current.wheelchair ? estimator.wheelchairAlighting : estimator.alighting, at: current, log: log))
    }

    /// How long boarding or alighting at `stop` takes: drawn log-normal around the model's `time`
    /// with coefficient of variation `--dwell-noise`, from a generator seeded by the day's seed, the
    /// ride's request and the stop, so both runs of the day draw the same time for the same stop.
    func dwell(_ time: TimeInterval, at stop: DeskStop, log: Log) -> TimeInterval {
        guard time > 0, let index = log.requestOf[stop.rideID] else { return time }
        var rng = Self.dwellGenerator(seed: options.seed, request: index, pickup: stop.pickup)
        return Self.logNormal(mean: time, cv: options.dwellCV, &rng).rounded()
    }

    /// The generator of one stop's dwell time: the day's seed, the request and the stop mixed.
    static func dwellGenerator(seed: UInt64, request: Int, pickup: Bool) -> SeededGenerator {
        var mixer = SeededGenerator(seed: seed ^ 0xD7E1_1000)
        let base = mixer.next()
        return SeededGenerator(seed: base ^ (UInt64(request) &* 0x9E37_79B9_7F4A_7C15 &* 2 &+ (pickup ? 0 : 0x5851_F42D_4C95_7F2D)))
    }

    /// One tap; whether the services took it.
    @discardableResult
    private func tap(_ van: SimulatedVan, _ stop: DeskStop, _ action: DeskAction, now: Date, log: inout Log) async throws -> Bool {
        if let refusal = try await desk.tap(driver: van.driver, ride: stop.rideID, pickup: stop.pickup, action: action, at: stop.place, now: now) {
            log.refusals.append("\(action): \(refusal)")
            return false
        } else {
            log.taps += 1
            if options.etaTrace, action == .arrived {
                log.arrivals.append(ETATrace.Arrival(van: van.id, ride: stop.rideID, pickup: stop.pickup, at: now))
            }
            return true
        }
    }

    /// A log-normal draw with this mean and coefficient of variation.
    static func logNormal(mean: Double, cv: Double, _ rng: inout SeededGenerator) -> Double {
        guard cv > 0 else { return mean }
        let sigma2 = log(1 + cv * cv)
        let mu = log(mean) - sigma2 / 2
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &rng), u2 = Double.random(in: 0..<1, using: &rng)
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        return exp(mu + sigma2.squareRoot() * normal)
    }

    /// The van's position from the driver's phone; with `--timings`, timed together with its
    /// van's ETAs worked out from it.
    func post(_ place: Coordinate, of van: SimulatedVan, etas: ETAService, now: Date, log: inout Log) async throws {
        guard options.timings else { return try await desk.position(driver: van.driver, place, now: now) }
        try await SimulationTimings.time(&log.timings.positionETAs) {
            try await desk.position(driver: van.driver, place, now: now)
            _ = try await etas.van(van.id, now: now)
        }
    }

    /// Books `request` as a rider would (the nearest time within the ADA hour if refused); its ride id.
    func book(_ request: CampusRequest, _ log: inout Log) async throws -> UUID? {
        let run = CampusDayRun(database: database, model: .shared, sites: sites, timeZone: timeZone)
        let willCall = fates.willCall[request.index]
        let tally = try await SimulationTimings.time(&log.timings.bookings) {
            try await run.book([request], seed: options.seed &+ UInt64(request.index) &* 0x9E37, willCalls: willCall ? [request.index] : [])
        }
        log.requestsBy[request.booking, default: 0] += 1
        guard let (id, promised) = tally.promised.first else {
            log.refused += 1
            log.refusedBy[request.booking, default: 0] += 1
            return nil
        }
        log.booked += 1
        if let moved = tally.movedMinutes[id] { log.negotiatedMinutes[id] = moved }
        if options.etaTrace { log.bookedAt[id] = clock.now }
        log.bookedIDs[request.index] = id
        if willCall { log.willCallRides.insert(id) }
        log.requestOf[id] = request.index
        log.netIDs[id] = try CampusFleet.netID(request.index)
        log.windows[id] = RidePromise(kind: promised.kind, asked: promised.asked, width: windowWidth).window
        log.plannedPickups[id] = try await database.pool.withConnection { conn in
            try conn.query("SELECT pickup_at FROM rides WHERE id = \(id)" as SQLQuery) { row in try row.decode(Date.self, "pickup_at") }.first
        }
        return id
    }

    /// Rides of the day still holding a van.
    func holdingVans(now: Date) async throws -> Int {
        let service = day.interval(in: timeZone)
        return try await database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT count(*) AS n FROM rides
                WHERE ride_holds_van(status) AND (pickup_at >= \(service.start) AND pickup_at < \(service.end) OR return_of IS NOT NULL)
                """ as SQLQuery
            ) { row in try row.decode(Int.self, "n") }.first ?? 0
        }
    }
}
