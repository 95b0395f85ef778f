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
    /// Every active van and every van on an open shift, by name, as of `now`. The run is the
    /// van's rides (pending or approved) picked up on `now`'s local date in `timeZone`, read by
    /// the one reader of runs (``RoadRuns``); its next stop is ``VanRun/next``. A van on a shift
    /// gets its ETAs from `eta` (nil: none, as for a van off the road).
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
        let (vans, runs, listings) = try await pool.withConnection { conn in
            let vans = try conn.query(
                """
                SELECT v.id, v.name, s.driver_net_id, d.name AS driver_name, p.at AS position_at
                FROM vans v
                LEFT JOIN shifts s ON s.van_id = v.id AND s.ended_at IS NULL
                LEFT JOIN riders d ON d.net_id = s.driver_net_id
                LEFT JOIN van_positions p ON p.van_id = v.id
                WHERE v.active OR s.id IS NOT NULL
                ORDER BY v.name
                """
            ).map { row in
                (
                    id: try row.decode(Int64.self, "id"), name: try row.decode(String.self, "name"),
                    driver: try row.decode(String?.self, "driver_net_id"), driverName: try row.decode(String?.self, "driver_name"),
                    positionAt: try row.decode(Date?.self, "position_at")
                )
            }
            let runs = try RoadRuns.read(conn, span: day, vans: vans.map(\.id), rides: .holdingVan)
            // The next stops' rides in full: their places' names and riders' names.
            let nextIDs = runs.values.compactMap { $0.next?.ride.id }
            let listings = nextIDs.isEmpty ? [] : try RideQueries.listings(conn, where: "r.id = ANY(\(nextIDs.postgresArrayLiteral)::uuid[])")
            return (vans, runs, Dictionary(listings.map { ($0.ride.id, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        var statuses: [VanStatus] = []
        for van in vans {
            var nextStop: VanStatus.NextStop?
            if let next = runs[van.id]?.next, let listing = listings[next.ride.id] {
                var expected: Date?
                if van.driver != nil, next.actual.arrivedAt == nil, let road = try await road(van.id) {
                    expected = road.estimates.first { $0.stop.rideID == next.ride.id && $0.stop.kind == next.kind }?.arrival
                }
                let lateness = next.lateness(eta: expected, now: now)
                let place = next.kind == .pickup ? listing.ride.pickup : listing.ride.dropoff
                nextStop = VanStatus.NextStop(
                    rideRef: next.ride.ref.rawValue, stop: next.kind, place: place.displayName, plannedAt: next.plannedAt,
                    rider: VanStatus.shortName(listing.riderName, netID: next.ride.netID),
                    arrivedAt: next.actual.arrivedAt, eta: expected, minutesLate: lateness?.minutes,
                    minutesBehindPlan: Lateness.behindPlanMinutes(next.actual.arrivedAt ?? expected ?? now, plannedAt: next.plannedAt))
            }
            let age = van.positionAt.map { max(0, Int(now.timeIntervalSince($0).rounded(.down))) }
            statuses.append(
                VanStatus(
                    van: van.name, driver: van.driver, driverName: van.driverName, positionAt: van.positionAt, positionAgeSeconds: age,
                    positionKnown: age.map { Double($0) <= stale } ?? false, nextStop: nextStop))
        }
        return statuses
    }
}
