import Foundation
import VanDomain
import VanScheduler
import VanPostgres

/// The van's run for today: what the driver on shift sees, and what the ETA, the reports and
/// the dispatcher read of a van's day on the road.
public struct RunService: Sendable {
    let pool: PGPool
    let clock: any TimeSource
    let settings: RoadSettings
    let timeZone: TimeZone

    /// Runs over `pool`, for a service in `timeZone`, timed by `clock`.
    public init(pool: PGPool, clock: any TimeSource, settings: RoadSettings, timeZone: TimeZone) {
        self.pool = pool
        self.clock = clock
        self.settings = settings
        self.timeZone = timeZone
    }

    /// Today in the service time zone.
    public var today: LocalDate { LocalDate(containing: clock.now, in: timeZone) }

    /// The driver's run: her open shift's van's stops today (and, past midnight, the evening
    /// before: ``Shift/runSpan(at:in:)``).
    /// - Throws: ``RoadError/noOpenShift``.
    public func run(driver: NetID) async throws -> DriverRun {
        let (now, day) = (clock.now, today)
        let (timeZone, undoWindow, rule) = (self.timeZone, settings.undoWindow, settings.noShowRule)
        return try await pool.withConnection { conn in
            guard let shift = try ShiftStore(conn).open(driver: driver) else { throw RoadError.noOpenShift }
            let stops = try Self.stops(
                vanID: shift.vanID, day: shift.runSpan(at: now, in: timeZone), undoWindow: undoWindow, rule: rule, now: now, conn)
            // The model at the road's speed as learned for this hour, as the ETAs drive it.
            let estimator =
                try conn.query(
                    "SELECT (SELECT value -> 'estimator' FROM settings WHERE key = 'scheduler') AS estimator, \(RoadSpeeds.column) AS speeds"
                ).first.map { try RoadSpeeds.estimator($0, estimator: "estimator", speeds: "speeds", at: now, timeZone: timeZone) } ?? TripEstimator()
            return DriverRun(shift: shift, day: day, stops: stops, leaveAt: DriverRun.leaveAt(stops, estimator: estimator, now: now))
        }
    }

    /// The stops of the van `vanID` on `day`, in route order, with what happened at each.
    public func stops(vanID: Int64, on day: LocalDate) async throws -> [RunStop] {
        let (timeZone, undoWindow, rule, now) = (self.timeZone, settings.undoWindow, settings.noShowRule, clock.now)
        return try await pool.withConnection { conn in
            try Self.stops(vanID: vanID, day: day.interval(in: timeZone), undoWindow: undoWindow, rule: rule, now: now, conn)
        }
    }

    /// The stops of `vanID`'s rides in `day`, each with the taps the ride policy lets the driver
    /// make at `now`: the rides read in full for the driver (names, phones, places) with their
    /// standing taps, made into the one road model (``VanRun``: which stops, in ``RunOrder`` as
    /// planned, a no-show's drop-off none) in one read.
    static func stops(vanID: Int64, day: DateInterval, undoWindow: TimeInterval, rule: NoShowRule, now: Date, _ conn: PGConnection) throws
        -> [RunStop]
    {
        let rides = try RunRides.all(vanID: vanID, day: day, conn)
        let taps = Dictionary(grouping: try TapStore(conn, undoWindow: undoWindow).standing(rideIDs: rides.map(\.id)), by: \.rideID)
        let details = Dictionary(rides.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let run = VanRun(
            vanID: vanID,
            rides: rides.map { ride in
                let rideTaps = taps[ride.id] ?? []
                return (ride.runRide, StopTap.actual(rideTaps, at: .pickup), StopTap.actual(rideTaps, at: .dropoff))
            })
        return run.stops.compactMap { stop in
            details[stop.ride.id].map { Self.stop($0, stop.kind, taps: taps[stop.ride.id] ?? [], rule: rule, now: now) }
        }
    }

    /// The `kind` stop of `ride`, whose standing taps (both stops) are `rideTaps`.
    static func stop(_ ride: RunRides.Row, _ kind: StopKind, taps rideTaps: [StopTap], rule: NoShowRule, now: Date) -> RunStop {
        let taps = rideTaps.filter { $0.stop == kind }
        let end = kind == .pickup ? ride.pickup : ride.dropoff
        let state = ride.roadState(standing: rideTaps)
        let offered = RidePolicy.offeredTaps(at: kind, state, rule: rule, now: now)
        let open = kind == .pickup && !taps.isEmpty && !taps.contains { $0.action.isOutcome } && ride.status == .approved
        let noShowRefusal = open ? RidePolicy.tapRefusal(.noShow, at: .pickup, state, rule: rule, now: now) : nil
        let arrived = taps.first { $0.action == .arrived }
        let outcome = taps.first { $0.action.isOutcome }
        var noShowFrom: Date?
        if kind == .pickup, outcome == nil, let arrived {
            noShowFrom = rule.allowedFrom(
                arrivedAt: arrived.at, window: NoShowRule.pickupWindow(promise: ride.promise, plannedPickup: ride.pickupAt),
                toldETA: ride.toldPickupETA)
        }
        return RunStop(
            rideID: ride.id, ref: ride.ref, rideStatus: ride.status, stop: kind,
            placeName: end.placeName, placeShort: end.placeShort, address: end.address, coordinate: end.coordinate,
            riderName: RunStop.shortName(ride.riderName), riderPhone: ride.riderPhone,
            wheelchair: ride.wheelchair, companions: ride.companions, note: ride.note, promise: ride.promise,
            plannedAt: kind == .pickup ? ride.pickupAt : RunOrder.plannedDropoff(pickupAt: ride.pickupAt, dropoffAt: ride.dropoffAt),
            arrivedAt: arrived?.at, departedAt: outcome?.at, outcome: outcome?.action,
            noShowAllowedFrom: noShowFrom, lastTap: taps.max { ($0.at, $0.id) < ($1.at, $1.id) },
            nextActions: offered.map(\.action), noShowRefusal: noShowRefusal
        )
    }
}
