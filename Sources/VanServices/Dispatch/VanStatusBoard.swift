import Foundation
import VanDomain
import VanPostgres

/// What the dispatcher sees of each van on the road: who drives it, how fresh its position is,
/// its next stop and how late it runs. Read from shifts, `van_positions`, today's rides and
/// `stop_actuals`; the lateness comes from a ``StopLateness`` (the planned time against now
/// until an ETA is given).
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
        /// Whole minutes late (0 on time); nil when unknown.
        public let minutesLate: Int?
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

/// How late a van's next stop runs. The default reads the planned time against now; an ETA
/// service gives a better figure by conforming and being passed to ``VanStatusBoard/load``.
public protocol StopLateness: Sendable {
    /// Seconds late (0 or more) at `stop` on `van` as of `now`; nil when unknown.
    func secondsLate(van: String, stop: VanStatusBoard.Stop, now: Date) async throws -> TimeInterval?
}

/// Lateness from the plan alone: an arrived stop is late by its arrival after the planned time;
/// one not reached yet, by how far now is past the planned time. Never negative.
public struct PlannedTimeLateness: StopLateness {
    /// The plan-only estimate.
    public init() {}

    public func secondsLate(van: String, stop: VanStatusBoard.Stop, now: Date) async throws -> TimeInterval? {
        max(0, (stop.arrivedAt ?? now).timeIntervalSince(stop.plannedAt))
    }
}

/// Reads every van's status.
public enum VanStatusBoard {
    /// A stop not yet done, as the lateness estimate sees it.
    public struct Stop: Sendable, Hashable {
        /// The ride.
        public let rideID: UUID
        /// Pickup or drop-off.
        public let kind: StopKind
        /// The planned time.
        public let plannedAt: Date
        /// The "arrived" tap, if made.
        public let arrivedAt: Date?
    }

    /// Every active van and every van on an open shift, by name, as of `now`. The run is the
    /// van's rides (pending or approved) picked up on `now`'s local date in `timeZone`; a stop is
    /// done once its outcome is tapped, and a no-show's drop-off is no stop. The next stop is the
    /// one the van arrived at and has not finished, else the first not done by planned time.
    public static func load(
        pool: PGPool, timeZone: TimeZone, now: Date, stale: TimeInterval, lateness: any StopLateness = PlannedTimeLateness()
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
        // Every stop not yet done, by van. The next is one the van has arrived at (it is there), else
        // the first by planned time, a drop-off before a pickup at the same time, as the route runs.
        var pending: [Int64: [(stop: Stop, place: String, ref: String, rider: String)]] = [:]
        for entry in rides {
            let ride = entry.ride
            guard let vanID = ride.vanID, entry.pickupOutcome != TapAction.noShow.rawValue else { continue }
            let rider = VanStatus.shortName(entry.riderName, netID: ride.netID.rawValue)
            if entry.pickupOutcome == nil {
                pending[vanID, default: []].append((Stop(rideID: ride.id, kind: .pickup, plannedAt: ride.pickupAt, arrivedAt: entry.pickupArrived),
                                                    ride.pickup.displayName, ride.ref.rawValue, rider))
            }
            if entry.dropoffOutcome == nil {
                pending[vanID, default: []].append((Stop(rideID: ride.id, kind: .dropoff, plannedAt: ride.estimatedDropoffAt, arrivedAt: entry.dropoffArrived),
                                                    ride.dropoff.displayName, ride.ref.rawValue, rider))
            }
        }
        var statuses: [VanStatus] = []
        for van in vans {
            let next = pending[van.id, default: []].min { a, b in
                if (a.stop.arrivedAt == nil) != (b.stop.arrivedAt == nil) { return a.stop.arrivedAt != nil }
                return a.stop.plannedAt != b.stop.plannedAt ? a.stop.plannedAt < b.stop.plannedAt : (a.stop.kind == .dropoff && b.stop.kind == .pickup)
            }
            var nextStop: VanStatus.NextStop?
            if let next {
                let late = try await lateness.secondsLate(van: van.name, stop: next.stop, now: now)
                nextStop = VanStatus.NextStop(
                    rideRef: next.ref, stop: next.stop.kind, place: next.place, plannedAt: next.stop.plannedAt, rider: next.rider,
                    arrivedAt: next.stop.arrivedAt, minutesLate: late.map { Int(($0 / 60).rounded(.down)) })
            }
            let age = van.positionAt.map { max(0, Int(now.timeIntervalSince($0).rounded(.down))) }
            statuses.append(VanStatus(
                van: van.name, driver: van.driver, driverName: van.driverName, positionAt: van.positionAt, positionAgeSeconds: age,
                positionKnown: age.map { Double($0) <= stale } ?? false, nextStop: nextStop))
        }
        return statuses
    }
}
