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
            try conn.query("SELECT van_id FROM shifts WHERE ended_at IS NULL ORDER BY van_id").map { try $0.decode(Int64.self, "van_id") }
        }
    }

    /// The vans of the rides of ride events `ids` (a tap, a re-timing, a cancellation) that have an open shift.
    public func vans(ofEvents ids: [Int64]) async throws -> [Int64] {
        let list = "{" + ids.map(String.init).joined(separator: ",") + "}"
        return try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT DISTINCT r.van_id FROM ride_events e JOIN rides r ON r.id = e.ride_id
                JOIN shifts s ON s.van_id = r.van_id AND s.ended_at IS NULL
                WHERE e.id = ANY(\(list)::bigint[])
                """
            ).map { try $0.decode(Int64.self, "van_id") }
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
        /// Whether the planner has vans wait empty (``SchedulerSettings/unhurriedMarginMinutes``): then
        /// a pickup is served at its planned time, not before.
        var unhurried = false
    }

    /// Reads van `vanID`'s fix on `conn` (two statements).
    static func fix(_ conn: PGConnection, vanID: Int64, now: Date, stale: TimeInterval, timeZone: TimeZone) throws -> RoadFix? {
        guard
            let shift = try conn.query(
                """
                SELECT s.started_at, p.at AS position_at, p.lat, p.lon,
                       (SELECT value -> 'estimator' FROM settings WHERE key = 'scheduler') AS estimator,
                       \(RoadSpeeds.column) AS speeds,
                       coalesce((SELECT jsonb_typeof(value -> 'unhurriedMarginMinutes') = 'number' FROM settings WHERE key = 'scheduler'), false)
                         AS unhurried
                FROM shifts s LEFT JOIN van_positions p ON p.van_id = s.van_id
                WHERE s.van_id = \(vanID) AND s.ended_at IS NULL
                """
            ).first
        else { return nil }
        let today = Shift.runSpan(startedAt: try shift.decode(Date.self, "started_at"), at: now, in: timeZone)
        var fixes: [(RoadETA.Fix, VanETAs.Source)] = []
        if let at = try shift.decode(Date?.self, "position_at"), at >= now.addingTimeInterval(-stale),
            let lat = try shift.decode(Double?.self, "lat"), let lon = try shift.decode(Double?.self, "lon")
        {
            fixes.append((RoadETA.Fix(location: try Coordinate(latitude: lat, longitude: lon), at: at), .position))
        }
        if let tap = try conn.query(
            """
            SELECT t.at, CASE WHEN t.stop = 'pickup' THEN r.pickup_lat ELSE r.dropoff_lat END AS lat,
                   CASE WHEN t.stop = 'pickup' THEN r.pickup_lon ELSE r.dropoff_lon END AS lon
            FROM stop_taps t JOIN shifts s ON s.id = t.shift_id JOIN rides r ON r.id = t.ride_id
            WHERE s.van_id = \(vanID) AND t.undone_at IS NULL AND t.at >= \(today.start) AND t.at <= \(now)
            ORDER BY t.at DESC, t.id DESC LIMIT 1
            """
        ).first {
            let location = try Self.coordinate(try tap.decode(Double?.self, "lat"), try tap.decode(Double?.self, "lon"))
            fixes.append((RoadETA.Fix(location: location, at: try tap.decode(Date.self, "at")), .tap))
        }
        guard let (fix, source) = fixes.max(by: { $0.0.at < $1.0.at }) else { return nil }
        // The model at the road's speed as learned for this hour (``RoadSpeeds``).
        let estimator = try RoadSpeeds.estimator(shift, estimator: "estimator", speeds: "speeds", at: now, timeZone: timeZone)
        return RoadFix(
            runSpan: today, fix: fix, source: source, estimator: estimator, unhurried: try shift.decode(Bool.self, "unhurried"))
    }

    /// The van's ETAs from its fix over its run (``VanRun``, read by ``RoadRuns``): the stops not
    /// done, in the order the van drives them now (``VanRun/remaining``).
    static func etas(fix: RoadFix, run: VanRun, now: Date) -> VanETAs {
        var rides: [UUID: VanETAs.RoadRide] = [:]
        let remaining = run.remaining
        var stops: [RoadETA.Stop] = []
        stops.reserveCapacity(remaining.count)
        for stop in remaining {
            let ride = stop.ride, promise = ride.promise
            rides[ride.id] = VanETAs.RoadRide(
                id: ride.id, netID: ride.netID, status: ride.status, promise: promise, pickupAt: ride.pickupAt,
                reminded: ride.reminded)
            // With vans waiting empty (``Scheduler/unhurriedMargin``), a pickup is served at its
            // planned time, not before: the planner may have the van wait there, not with riders aboard later.
            let opensAt: Date? =
                switch stop.kind {
                case .pickup:
                    promise.kind == .pickup ? (fix.unhurried ? max(promise.window.start, ride.pickupAt) : promise.window.start) : ride.pickupAt
                case .dropoff: promise.kind == .arriveBy ? promise.window.start : nil
                }
            stops.append(
                RoadETA.Stop(
                    rideID: ride.id, kind: stop.kind, location: stop.location, wheelchair: ride.wheelchair, plannedAt: stop.plannedAt,
                    opensAt: opensAt, windowEnd: stop.windowEnd, arrivedAt: stop.actual.arrivedAt))
        }
        let estimates = RoadETA(estimator: fix.estimator).estimates(from: fix.fix, through: stops, now: now)
        return VanETAs(vanID: run.vanID, fix: fix.fix, source: fix.source, estimates: estimates, rides: rides, now: now)
    }

    /// Reads and works out one van's ETAs on `conn`.
    static func van(_ conn: PGConnection, vanID: Int64, now: Date, stale: TimeInterval, timeZone: TimeZone) throws -> VanETAs? {
        guard let fix = try fix(conn, vanID: vanID, now: now, stale: stale, timeZone: timeZone) else { return nil }
        let run = try RoadRuns.read(conn, span: fix.runSpan, vans: [vanID], rides: .holdingVan)[vanID] ?? VanRun(vanID: vanID, rides: [])
        return etas(fix: fix, run: run, now: now)
    }

    /// A ride's coordinate from its two columns.
    static func coordinate(_ lat: Double?, _ lon: Double?) throws -> Coordinate? {
        guard let lat, let lon else { return nil }
        return try Coordinate(latitude: lat, longitude: lon)
    }

}
