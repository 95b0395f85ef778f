import Foundation
import VanDomain
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
            let stops = try Self.stops(vanID: shift.vanID, day: shift.runSpan(at: now, in: timeZone), undoWindow: undoWindow, rule: rule, conn)
            return DriverRun(shift: shift, day: day, stops: stops)
        }
    }

    /// The stops of the van `vanID` on `day`, in route order, with what happened at each.
    public func stops(vanID: Int64, on day: LocalDate) async throws -> [RunStop] {
        let (timeZone, undoWindow, rule) = (self.timeZone, settings.undoWindow, settings.noShowRule)
        return try await pool.withConnection { conn in
            try Self.stops(vanID: vanID, day: day.interval(in: timeZone), undoWindow: undoWindow, rule: rule, conn)
        }
    }

    static func stops(vanID: Int64, day: DateInterval, undoWindow: TimeInterval, rule: NoShowRule, _ conn: PGConnection) throws -> [RunStop] {
        let rides = try RunRides.all(vanID: vanID, day: day, conn)
        let taps = try TapStore(conn, undoWindow: undoWindow).standing(rideIDs: rides.map(\.id))
        var byStop: [StopKey: [StopTap]] = [:]
        for tap in taps { byStop[StopKey(ride: tap.rideID, stop: tap.stop), default: []].append(tap) }
        var stops: [RunStop] = []
        for ride in rides {
            stops.append(stop(ride, .pickup, taps: byStop[StopKey(ride: ride.id, stop: .pickup)] ?? [], rule: rule))
            if ride.status != .noShow {
                stops.append(stop(ride, .dropoff, taps: byStop[StopKey(ride: ride.id, stop: .dropoff)] ?? [], rule: rule))
            }
        }
        // The plan's order (``RunOrder`` without arrivals): the run lists the day as planned.
        return stops.sorted { a, b in
            RunOrder.precedes(RunOrder.Key(rideID: a.rideID, kind: a.stop, plannedAt: a.plannedAt),
                              RunOrder.Key(rideID: b.rideID, kind: b.stop, plannedAt: b.plannedAt))
        }
    }

    struct StopKey: Hashable {
        let ride: UUID
        let stop: StopKind
    }

    static func stop(_ ride: RunRides.Row, _ kind: StopKind, taps: [StopTap], rule: NoShowRule) -> RunStop {
        let end = kind == .pickup ? ride.pickup : ride.dropoff
        let arrived = taps.first { $0.action == .arrived }
        let outcome = taps.first { $0.action.isOutcome }
        var noShowFrom: Date?
        if kind == .pickup, outcome == nil, let arrived {
            noShowFrom = rule.allowedFrom(arrivedAt: arrived.at, window: NoShowRule.pickupWindow(promise: ride.promise, plannedPickup: ride.pickupAt),
                                          toldETA: ride.toldPickupETA)
        }
        return RunStop(
            rideID: ride.id, ref: ride.ref, rideStatus: ride.status, stop: kind,
            placeName: end.placeName, placeShort: end.placeShort, address: end.address, coordinate: end.coordinate,
            riderName: RunStop.shortName(ride.riderName), riderPhone: ride.riderPhone,
            wheelchair: ride.wheelchair, companions: ride.companions, note: ride.note, promise: ride.promise,
            plannedAt: kind == .pickup ? ride.pickupAt : RunOrder.plannedDropoff(pickupAt: ride.pickupAt, dropoffAt: ride.dropoffAt),
            arrivedAt: arrived?.at, departedAt: outcome?.at, outcome: outcome?.action,
            noShowAllowedFrom: noShowFrom, lastTap: taps.max { ($0.at, $0.id) < ($1.at, $1.id) }
        )
    }
}
