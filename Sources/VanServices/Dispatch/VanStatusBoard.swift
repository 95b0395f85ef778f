import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// What the dispatcher sees of each van on the road: who drives it, how fresh its position is,
/// its next stop and how late it runs. Read from shifts, `van_positions`, today's rides and
/// `stop_actuals`; how late the next stop runs is ``Lateness``, from the van's ETA (``ETAService``).
public struct VanStatus: Sendable, Codable, Hashable {
    /// The next stop of a van's run today: the first, in planned order, not yet done.
    public struct NextStop: Sendable, Codable, Hashable {
        /// The ride's reference.
        public let rideRef: String
        /// Pickup or drop-off.
        public let stop: StopKind
        /// The place's name, the address or the point.
        public let place: String
        /// The planned time of the stop.
        public let plannedAt: Date
        /// The rider's first name and initial ("Jane D."), else the net id.
        public let rider: String
        /// When the driver tapped "arrived" there, if she did.
        public let arrivedAt: Date?
        /// When the van is expected there (a van on the road, not yet there); nil otherwise.
        public let eta: Date?
        /// Whole minutes late against the rider's promise (``Lateness``, as the board, the map, the
        /// alerts and the rider read it): 0 on time; nil when this stop carries no promise or
        /// nothing says when the van gets there yet.
        public let minutesLate: Int?
        /// Whole minutes the van (there, expected, or not yet there now) runs behind the planner's
        /// time: the dispatcher's second figure, not a promise (``Lateness/behindPlanMinutes(_:plannedAt:)``).
        public let minutesBehindPlan: Int
    }

    /// The van's name.
    public let van: String
    /// The driver's net id on the van's open shift; nil with none.
    public let driver: String?
    /// The driver's name, if known.
    public let driverName: String?
    /// When the van's latest position was taken; nil with none.
    public let positionAt: Date?
    /// Whole seconds since then (0 for a time ahead of now); nil with no position.
    public let positionAgeSeconds: Int?
    /// Whether the position is fresh enough to use (its age within `VAND_POSITION_STALE`).
    public let positionKnown: Bool
    /// The next stop; nil when the day's run is done or empty.
    public let nextStop: NextStop?

    /// The rider as the driver's page names her (``RunStop/shortName(_:)``: "Jane D."); the net
    /// id when she gave no name.
    public static func shortName(_ name: String?, netID: String) -> String {
        guard let name, name.contains(where: { !$0.isWhitespace }) else { return netID }
        return RunStop.shortName(name)
    }
}

/// Reads every van's status.
public enum VanStatusBoard {
    /// A stop not yet done.
    struct Stop: Sendable, Hashable {
        let rideID: UUID
        let kind: StopKind
        let plannedAt: Date
        let windowEnd: Date?
        let arrivedAt: Date?
    }

    /// Every active van and every van on an open shift, by name, as of `now`. The run is the
    /// van's rides (pending or approved) picked up on `now`'s local date in `timeZone`; a stop is
    /// done once its outcome is tapped, and a no-show's drop-off is no stop. The next stop is the
    /// one the van arrived at and has not finished, else the first not done by planned time. A van
    /// on a shift gets its ETAs from `eta` (nil: none, as for a van off the road).
    public static func load(
        pool: PGPool, eta: ETAService?, timeZone: TimeZone, now: Date, stale: TimeInterval
    ) async throws -> [VanStatus] {
        try await load(pool: pool, road: { vanID in try await eta?.van(vanID, now: now) }, timeZone: timeZone, now: now, stale: stale)
    }

    /// ``load(pool:eta:timeZone:now:stale:)`` with a van's ETAs from `road` (a caller that reads
    /// them anyway, as the map does, passes the ones it read).
    static func load(
        pool: PGPool, road: @Sendable (Int64) async throws -> VanETAs?, timeZone: TimeZone, now: Date, stale: TimeInterval
    ) async throws -> [VanStatus] {
        let day = LocalDate(containing: now, in: timeZone).interval(in: timeZone)
        let (vans, rides) = try await pool.withConnection { conn in
            let vans = try conn.query("""
                SELECT v.id, v.name, s.driver_net_id, d.name AS driver_name, p.at AS position_at
                FROM vans v
                LEFT JOIN shifts s ON s.van_id = v.id AND s.ended_at IS NULL
                LEFT JOIN riders d ON d.net_id = s.driver_net_id
                LEFT JOIN van_positions p ON p.van_id = v.id
                WHERE v.active OR s.id IS NOT NULL
                ORDER BY v.name
                """).map { row in
                (id: try row.decode(Int64.self, "id"), name: try row.decode(String.self, "name"),
                 driver: try row.decode(String?.self, "driver_net_id"), driverName: try row.decode(String?.self, "driver_name"),
                 positionAt: try row.decode(Date?.self, "position_at"))
            }
            let rides = try conn.query("""
                SELECT base.*, ri.name AS rider_name,
                       pa.arrived_at AS p_arrived, pa.outcome AS p_outcome, da.arrived_at AS d_arrived, da.outcome AS d_outcome
                FROM (\(RideRecord.select)
                      WHERE ride_holds_van(r.status) AND r.van_id IS NOT NULL
                        AND r.pickup_at >= \(day.start) AND r.pickup_at < \(day.end)) AS base
                LEFT JOIN riders ri ON ri.net_id = base.net_id
                LEFT JOIN stop_actuals pa ON pa.ride_id = base.id AND pa.stop = 'pickup'
                LEFT JOIN stop_actuals da ON da.ride_id = base.id AND da.stop = 'dropoff'
                ORDER BY base.pickup_at, base.id
                """).map { row in
                (ride: try RideRecord.ride(row), riderName: try row.decode(String?.self, "rider_name"),
                 pickupArrived: try row.decode(Date?.self, "p_arrived"), pickupOutcome: try row.decode(String?.self, "p_outcome"),
                 dropoffArrived: try row.decode(Date?.self, "d_arrived"), dropoffOutcome: try row.decode(String?.self, "d_outcome"))
            }
            return (vans, rides)
        }
        // Every stop not yet done, by van; the next is the first in ``RunOrder``.
        var pending: [Int64: [(stop: Stop, place: String, ref: String, rider: String)]] = [:]
        for entry in rides {
            let ride = entry.ride
            guard let vanID = ride.vanID, entry.pickupOutcome != TapAction.noShow.rawValue else { continue }
            let rider = VanStatus.shortName(entry.riderName, netID: ride.netID.rawValue)
            if entry.pickupOutcome == nil {
                pending[vanID, default: []].append((Stop(rideID: ride.id, kind: .pickup, plannedAt: ride.pickupAt,
                                                         windowEnd: ride.promise.windowEnd(at: .pickup), arrivedAt: entry.pickupArrived),
                                                    ride.pickup.displayName, ride.ref.rawValue, rider))
            }
            if entry.dropoffOutcome == nil {
                pending[vanID, default: []].append((Stop(rideID: ride.id, kind: .dropoff, plannedAt: RunOrder.plannedDropoff(pickupAt: ride.pickupAt, dropoffAt: ride.estimatedDropoffAt),
                                                         windowEnd: ride.promise.windowEnd(at: .dropoff), arrivedAt: entry.dropoffArrived),
                                                    ride.dropoff.displayName, ride.ref.rawValue, rider))
            }
        }
        var statuses: [VanStatus] = []
        for van in vans {
            let next = pending[van.id, default: []].min { a, b in
                RunOrder.precedes(RunOrder.Key(rideID: a.stop.rideID, kind: a.stop.kind, plannedAt: a.stop.plannedAt, arrivedAt: a.stop.arrivedAt),
                                  RunOrder.Key(rideID: b.stop.rideID, kind: b.stop.kind, plannedAt: b.stop.plannedAt, arrivedAt: b.stop.arrivedAt))
            }
            var nextStop: VanStatus.NextStop?
            if let next {
                var expected: Date?
                if van.driver != nil, next.stop.arrivedAt == nil, let road = try await road(van.id) {
                    expected = road.estimates.first { $0.stop.rideID == next.stop.rideID && $0.stop.kind == next.stop.kind }?.arrival
                }
                let lateness = Lateness.of(windowEnd: next.stop.windowEnd, arrived: next.stop.arrivedAt, eta: expected, now: now)
                nextStop = VanStatus.NextStop(
                    rideRef: next.ref, stop: next.stop.kind, place: next.place, plannedAt: next.stop.plannedAt, rider: next.rider,
                    arrivedAt: next.stop.arrivedAt, eta: expected, minutesLate: lateness?.minutes,
                    minutesBehindPlan: Lateness.behindPlanMinutes(next.stop.arrivedAt ?? expected ?? now, plannedAt: next.stop.plannedAt))
            }
            let age = van.positionAt.map { max(0, Int(now.timeIntervalSince($0).rounded(.down))) }
            statuses.append(VanStatus(
                van: van.name, driver: van.driver, driverName: van.driverName, positionAt: van.positionAt, positionAgeSeconds: age,
                positionKnown: age.map { Double($0) <= stale } ?? false, nextStop: nextStop))
        }
        return statuses
    }
}
