import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// ETAs from the road: reads a van's open shift, latest position, last tap today and remaining
/// stops, and runs ``RoadETA`` over them with the scheduler's travel model.
///
/// A van is *on the road* when it has an open shift and either a position no older than
/// ``EventSettings/positionStale`` or a tap today (service day in the service zone). The fix is the
/// newer of the two: a fresh position, or the tapped stop's place at the tap's time. Its remaining
/// stops are those of its rides holding it today whose pickup or drop-off is not done (no outcome
/// in `stop_actuals`), in ``RunOrder``.
public struct ETAService: Sendable {
    let pool: PGPool
    /// The ETA lead, the position's staleness and the reminder lead.
    public let settings: EventSettings
    /// The service zone (its day is "today").
    public let timeZone: TimeZone

    /// ETAs on `pool` with `settings`, days in `timeZone`.
    public init(pool: PGPool, settings: EventSettings, timeZone: TimeZone) {
        self.pool = pool
        self.settings = settings
        self.timeZone = timeZone
    }

    /// The van's ETAs as of `now`; nil when it is not on the road.
    public func van(_ vanID: Int64, now: Date) async throws -> VanETAs? {
        let stale = settings.positionStale, zone = timeZone
        return try await pool.withConnection { try Self.van($0, vanID: vanID, now: now, stale: stale, timeZone: zone) }
    }

    /// What the rider of `ride` may see of her van now (``VanETAs/rider(_:lead:)``); reads the road
    /// only inside the ETA lead before her wait begins, with the ride approved on a van.
    public func rider(_ ride: Ride, now: Date) async throws -> RiderETA? {
        guard ride.status == .approved, let vanID = ride.vanID else { return nil }
        let opensAt = ride.promise.kind == .pickup ? ride.promise.window.start : ride.pickupAt
        guard now >= opensAt.addingTimeInterval(-settings.etaLead), now < ride.estimatedDropoffAt.addingTimeInterval(12 * 3_600) else { return nil }
        return try await van(vanID, now: now)?.rider(ride.id, lead: settings.etaLead)
    }

    /// Vans with an open shift (the ones that may be on the road).
    public func vansWithOpenShifts() async throws -> [Int64] {
        try await pool.withConnection { conn in
            try conn.query("SELECT van_id FROM shifts WHERE ended_at IS NULL ORDER BY van_id").map { try $0.decode(Int64.self, at: 0) }
        }
    }

    /// The vans of the rides of ride events `ids` (a tap, a re-timing, a cancellation) that have an open shift.
    public func vans(ofEvents ids: [Int64]) async throws -> [Int64] {
        let list = "{" + ids.map(String.init).joined(separator: ",") + "}"
        return try await pool.withConnection { conn in
            try conn.query("""
                SELECT DISTINCT r.van_id FROM ride_events e JOIN rides r ON r.id = e.ride_id
                JOIN shifts s ON s.van_id = r.van_id AND s.ended_at IS NULL
                WHERE e.id = ANY(\(list)::bigint[])
                """).map { try $0.decode(Int64.self, at: 0) }
        }
    }

    /// Where a van on the road is: the newer of a fresh position and its last tap today, with the
    /// span of its run and the travel model; nil when it has no open shift or neither fix.
    struct RoadFix {
        /// The run's pickups: today's, and past midnight the evening before's (``Shift/runSpan(startedAt:at:in:)``).
        let runSpan: DateInterval
        let fix: RoadETA.Fix
        let source: VanETAs.Source
        let estimator: TripEstimator
    }

    /// Reads van `vanID`'s fix on `conn` (two statements).
    static func fix(_ conn: PGConnection, vanID: Int64, now: Date, stale: TimeInterval, timeZone: TimeZone) throws -> RoadFix? {
        guard let shift = try conn.query("""
            SELECT s.started_at, p.at AS position_at, p.lat, p.lon,
                   (SELECT value -> 'estimator' FROM settings WHERE key = 'scheduler') AS estimator
            FROM shifts s LEFT JOIN van_positions p ON p.van_id = s.van_id
            WHERE s.van_id = \(vanID) AND s.ended_at IS NULL
            """).first else { return nil }
        let today = Shift.runSpan(startedAt: try shift.decode(Date.self, "started_at"), at: now, in: timeZone)
        var fixes: [(RoadETA.Fix, VanETAs.Source)] = []
        if let at = try shift.decode(Date?.self, "position_at"), at >= now.addingTimeInterval(-stale),
           let lat = try shift.decode(Double?.self, "lat"), let lon = try shift.decode(Double?.self, "lon") {
            fixes.append((RoadETA.Fix(location: try Coordinate(latitude: lat, longitude: lon), at: at), .position))
        }
        if let tap = try conn.query("""
            SELECT t.at, CASE WHEN t.stop = 'pickup' THEN r.pickup_lat ELSE r.dropoff_lat END AS lat,
                   CASE WHEN t.stop = 'pickup' THEN r.pickup_lon ELSE r.dropoff_lon END AS lon
            FROM stop_taps t JOIN shifts s ON s.id = t.shift_id JOIN rides r ON r.id = t.ride_id
            WHERE s.van_id = \(vanID) AND t.undone_at IS NULL AND t.at >= \(today.start) AND t.at <= \(now)
            ORDER BY t.at DESC, t.id DESC LIMIT 1
            """).first {
            let location = try Self.coordinate(try tap.decode(Double?.self, "lat"), try tap.decode(Double?.self, "lon"))
            fixes.append((RoadETA.Fix(location: location, at: try tap.decode(Date.self, "at")), .tap))
        }
        guard let (fix, source) = fixes.max(by: { $0.0.at < $1.0.at }) else { return nil }
        let estimator = try shift.decode(PGJSON<TripEstimator>?.self, "estimator")?.value ?? TripEstimator()
        return RoadFix(runSpan: today, fix: fix, source: source, estimator: estimator)
    }

    /// One ride holding a van on its run, with what the driver tapped at its stops: what the
    /// ETAs are worked out from (read by ``van(_:vanID:now:stale:timeZone:)``, or taken from the
    /// day board's own read).
    struct RunRide {
        let ride: VanETAs.RoadRide
        let dropoffAt: Date
        let pickup: Coordinate?
        let dropoff: Coordinate?
        let wheelchair: Bool
        let pickupArrived: Date?
        let pickupDone: Bool
        let dropoffArrived: Date?
        let dropoffDone: Bool
    }

    /// The van's ETAs from its fix over its run's rides: the stops not done, in ``routeOrder(_:_:)``.
    static func etas(vanID: Int64, fix: RoadFix, rides runRides: [RunRide], now: Date) -> VanETAs {
        var rides: [UUID: VanETAs.RoadRide] = [:]
        var stops: [RoadETA.Stop] = []
        stops.reserveCapacity(runRides.count * 2)
        for run in runRides where !run.dropoffDone {
            let ride = run.ride, promise = ride.promise
            rides[ride.id] = ride
            if !run.pickupDone {
                stops.append(RoadETA.Stop(
                    rideID: ride.id, kind: .pickup, location: run.pickup, wheelchair: run.wheelchair, plannedAt: ride.pickupAt,
                    opensAt: promise.kind == .pickup ? promise.window.start : ride.pickupAt,
                    windowEnd: promise.windowEnd(at: .pickup), arrivedAt: run.pickupArrived))
            }
            stops.append(RoadETA.Stop(
                rideID: ride.id, kind: .dropoff, location: run.dropoff, wheelchair: run.wheelchair, plannedAt: RunOrder.plannedDropoff(pickupAt: ride.pickupAt, dropoffAt: run.dropoffAt),
                opensAt: promise.kind == .arriveBy ? promise.window.start : nil,
                windowEnd: promise.windowEnd(at: .dropoff), arrivedAt: run.dropoffArrived))
        }
        stops.sort(by: Self.routeOrder)
        let estimates = RoadETA(estimator: fix.estimator).estimates(from: fix.fix, through: stops, now: now)
        return VanETAs(vanID: vanID, fix: fix.fix, source: fix.source, estimates: estimates, rides: rides, now: now)
    }

    /// Reads and works out one van's ETAs on `conn`.
    static func van(_ conn: PGConnection, vanID: Int64, now: Date, stale: TimeInterval, timeZone: TimeZone) throws -> VanETAs? {
        guard let fix = try fix(conn, vanID: vanID, now: now, stale: stale, timeZone: timeZone) else { return nil }
        let today = fix.runSpan
        let rides = try conn.query("""
            SELECT r.id, r.net_id, r.status, r.pickup_at, r.estimated_dropoff_at, r.pickup_lat, r.pickup_lon,
                   r.dropoff_lat, r.dropoff_lon, r.needs_wheelchair, r.promise, r.window_start, r.window_end, r.reminded_at IS NOT NULL AS reminded,
                   pa.arrived_at AS pickup_arrived, pa.outcome AS pickup_outcome,
                   da.arrived_at AS dropoff_arrived, da.outcome AS dropoff_outcome
            FROM rides r
            LEFT JOIN LATERAL (SELECT * FROM stop_actuals a WHERE a.ride_id = r.id AND a.stop = 'pickup') pa ON true
            LEFT JOIN LATERAL (SELECT * FROM stop_actuals a WHERE a.ride_id = r.id AND a.stop = 'dropoff') da ON true
            WHERE r.van_id = \(vanID) AND ride_holds_van(r.status)
              AND r.pickup_at >= \(today.start) AND r.pickup_at < \(today.end)
            """).map { row in
            let promise = RidePromise(kind: RidePromise.Kind(rawValue: try row.decode(String.self, "promise")) ?? .pickup,
                                      window: DateInterval(start: try row.decode(Date.self, "window_start"), end: try row.decode(Date.self, "window_end")))
            return RunRide(
                ride: VanETAs.RoadRide(id: try row.decode(UUID.self, "id"), netID: try row.decode(String.self, "net_id"),
                                       status: RideStatus(rawValue: try row.decode(String.self, "status")) ?? .pending,
                                       promise: promise, pickupAt: try row.decode(Date.self, "pickup_at"), reminded: try row.decode(Bool.self, "reminded")),
                dropoffAt: try row.decode(Date.self, "estimated_dropoff_at"),
                pickup: try Self.coordinate(try row.decode(Double?.self, "pickup_lat"), try row.decode(Double?.self, "pickup_lon")),
                dropoff: try Self.coordinate(try row.decode(Double?.self, "dropoff_lat"), try row.decode(Double?.self, "dropoff_lon")),
                wheelchair: try row.decode(Bool.self, "needs_wheelchair"),
                pickupArrived: try row.decode(Date?.self, "pickup_arrived"), pickupDone: try row.decode(String?.self, "pickup_outcome") != nil,
                dropoffArrived: try row.decode(Date?.self, "dropoff_arrived"), dropoffDone: try row.decode(String?.self, "dropoff_outcome") != nil)
        }
        return etas(vanID: vanID, fix: fix, rides: rides, now: now)
    }

    /// ``RunOrder``, on the ETA's stops.
    static func routeOrder(_ a: RoadETA.Stop, _ b: RoadETA.Stop) -> Bool {
        RunOrder.precedes(RunOrder.Key(rideID: a.rideID, kind: a.kind, plannedAt: a.plannedAt, arrivedAt: a.arrivedAt),
                          RunOrder.Key(rideID: b.rideID, kind: b.kind, plannedAt: b.plannedAt, arrivedAt: b.arrivedAt))
    }

    /// A ride's coordinate from its two columns.
    static func coordinate(_ lat: Double?, _ lon: Double?) throws -> Coordinate? {
        guard let lat, let lon else { return nil }
        return try Coordinate(latitude: lat, longitude: lon)
    }

}
