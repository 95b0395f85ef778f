import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// On-time performance for a period (local dates, inclusive), by the rules of ``OnTime``:
/// overall, by day, by van and by driver, and every stop of the period for the CSV.
///
/// The period's stops are those of rides picked up (as planned) in it that were approved,
/// completed or no-shows, and any stop a driver tapped; a no-show's drop-off is no stop.
/// Actual times come only from `stop_actuals`, planned ones from `rides`.
public struct OnTimeReport: Sendable, Encodable {
    /// The figures of one day, van or driver.
    public struct Group: Sendable, Codable, Hashable {
        /// The day (`2026-11-23`), the van's name or the driver's net id; `-` for none.
        public let key: String
        /// Its figures.
        public let figures: OnTimeFigures
    }

    /// One stop of the period, with what was planned and what happened.
    public struct StopRow: Sendable, Hashable {
        /// The ride's reference.
        public let rideRef: String
        /// The service day (the planned pickup's local date).
        public let day: LocalDate
        /// The van that served it (the tapping shift's), else the ride's van.
        public let van: String?
        /// The driver whose shift tapped it; for a stop with no tap, the driver on the van's
        /// shift at its planned time, if any: a shift still open covers planned times up to now,
        /// and no shift covers more than ``OnTimeReport/longestShift`` from its start (a shift left
        /// open is not credited with the days after it).
        public let driver: String?
        /// Where: the place's name, the address or the point.
        public let place: String
        /// The stop, its promise and its times.
        public let stop: RecordedStop
        /// The stop judged as of the report's time.
        public let verdict: OnTime.Verdict
    }

    /// First local date.
    public let from: LocalDate
    /// Last local date.
    public let to: LocalDate
    /// The whole period.
    public let overall: OnTimeFigures
    /// By service day, in date order.
    public let byDay: [Group]
    /// By van, by name.
    public let byVan: [Group]
    /// By driver, by net id (`-`: stops with no driver).
    public let byDriver: [Group]
    /// Every stop, in planned order.
    public let stops: [StopRow]

    enum CodingKeys: String, CodingKey { case from, to, overall, byDay, byVan, byDriver }

    /// Reads the period's stops and judges them as of `now` (stops still ahead are upcoming).
    /// The longest a shift is taken to cover untapped stops from its start, seconds: a day (a
    /// shift past midnight keeps the evening's stops; none runs longer).
    public static let longestShift = 86_400

    public static func load(pool: PGPool, from: LocalDate, to: LocalDate, timeZone: TimeZone, now: Date) async throws -> OnTimeReport {
        let start = from.interval(in: timeZone).start
        let end = to.interval(in: timeZone).end
        let estimator = try await ServiceCalendarStore(pool: pool, timeZone: timeZone).settings().estimator
        let rows = try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT base.*,
                       pa.arrived_at AS p_arrived, pa.departed_at AS p_departed, pa.outcome AS p_outcome,
                       coalesce(pv.name, base_van.name) AS p_van, coalesce(ps.driver_net_id, p_due.driver_net_id) AS p_driver,
                       da.arrived_at AS d_arrived, da.departed_at AS d_departed, da.outcome AS d_outcome,
                       coalesce(dv.name, base_van.name) AS d_van, coalesce(ds.driver_net_id, d_due.driver_net_id) AS d_driver
                FROM (\(RideRecord.select)
                      WHERE r.pickup_at >= \(start) AND r.pickup_at < \(end)) AS base
                LEFT JOIN vans base_van ON base_van.id = base.van_id
                LEFT JOIN stop_actuals pa ON pa.ride_id = base.id AND pa.stop = 'pickup'
                LEFT JOIN shifts ps ON ps.id = pa.shift_id
                LEFT JOIN vans pv ON pv.id = ps.van_id
                LEFT JOIN stop_actuals da ON da.ride_id = base.id AND da.stop = 'dropoff'
                LEFT JOIN shifts ds ON ds.id = da.shift_id
                LEFT JOIN vans dv ON dv.id = ds.van_id
                LEFT JOIN LATERAL (SELECT driver_net_id FROM shifts s
                                   WHERE s.van_id = base.van_id AND s.started_at <= base.pickup_at
                                     AND least(coalesce(s.ended_at, \(now)), s.started_at + \(Self.longestShift) * interval '1 second') > base.pickup_at
                                   ORDER BY s.started_at DESC LIMIT 1) p_due ON pa.ride_id IS NULL
                LEFT JOIN LATERAL (SELECT driver_net_id FROM shifts s
                                   WHERE s.van_id = base.van_id AND s.started_at <= base.estimated_dropoff_at
                                     AND least(coalesce(s.ended_at, \(now)), s.started_at + \(Self.longestShift) * interval '1 second') > base.estimated_dropoff_at
                                   ORDER BY s.started_at DESC LIMIT 1) d_due ON da.ride_id IS NULL
                WHERE base.status IN ('approved', 'completed', 'no_show') OR pa.ride_id IS NOT NULL OR da.ride_id IS NOT NULL
                ORDER BY base.pickup_at, base.id
                """
            ).map { row in try Self.stops(row, estimator: estimator, timeZone: timeZone, now: now) }
        }
        let stops = rows.flatMap { $0 }.sorted {
            ($0.stop.planned, $0.rideRef, $0.stop.kind == .pickup ? 0 : 1) < ($1.stop.planned, $1.rideRef, $1.stop.kind == .pickup ? 0 : 1)
        }
        func groups(_ key: (StopRow) -> String) -> [Group] {
            Dictionary(grouping: stops, by: key).map { Group(key: $0.key, figures: OnTimeFigures($0.value.map(\.stop), now: now)) }
                .sorted { $0.key < $1.key }
        }
        return OnTimeReport(
            from: from, to: to, overall: OnTimeFigures(stops.map(\.stop), now: now),
            byDay: groups { $0.day.description }, byVan: groups { $0.van ?? "-" }, byDriver: groups { $0.driver ?? "-" },
            stops: stops
        )
    }

    /// The ride's pickup and, unless the rider did not come, its drop-off.
    private static func stops(_ row: PGRow, estimator: TripEstimator, timeZone: TimeZone, now: Date) throws -> [StopRow] {
        let ride = try RideRecord.ride(row)
        let pickupOutcome = try row.decode(String?.self, "p_outcome").flatMap(TapAction.init(rawValue:))
        let pickupDeparted: Date? = try row.decode(Date?.self, "p_departed")
        let trip = estimator.tripDuration(from: ride.pickup.coordinate, to: ride.dropoff.coordinate, wheelchair: ride.needsWheelchair)
        let direct = max(1, trip - (ride.needsWheelchair ? estimator.wheelchairAlighting : estimator.alighting))
        let day = LocalDate(containing: ride.pickupAt, in: timeZone)
        let pickup = RecordedStop(
            kind: .pickup, promise: ride.promise, planned: ride.pickupAt, arrivedAt: try row.decode(Date?.self, "p_arrived"),
            departedAt: pickupDeparted, outcome: pickupOutcome, maxRideTime: ride.maxRideTime, directRide: direct)
        var rows = [
            StopRow(
                rideRef: ride.ref.rawValue, day: day, van: try row.decode(String?.self, "p_van"), driver: try row.decode(String?.self, "p_driver"),
                place: ride.pickup.displayName, stop: pickup, verdict: OnTime.verdict(pickup, now: now))
        ]
        let dropoffArrived: Date? = try row.decode(Date?.self, "d_arrived")
        let dropoffDeparted: Date? = try row.decode(Date?.self, "d_departed")
        let noShow = pickupOutcome == .noShow || ride.status == .noShow
        if !noShow || dropoffArrived != nil || dropoffDeparted != nil {
            let dropoff = RecordedStop(
                kind: .dropoff, promise: ride.promise, planned: ride.estimatedDropoffAt, arrivedAt: dropoffArrived, departedAt: dropoffDeparted,
                outcome: try row.decode(String?.self, "d_outcome").flatMap(TapAction.init(rawValue:)),
                boardedAt: pickupOutcome == .boarded ? pickupDeparted : nil, maxRideTime: ride.maxRideTime, directRide: direct)
            rows.append(
                StopRow(
                    rideRef: ride.ref.rawValue, day: day, van: try row.decode(String?.self, "d_van"),
                    driver: try row.decode(String?.self, "d_driver"),
                    place: ride.dropoff.displayName, stop: dropoff, verdict: OnTime.verdict(dropoff, now: now)))
        }
        return rows
    }
}
