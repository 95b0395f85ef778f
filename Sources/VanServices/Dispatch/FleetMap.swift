import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// What the dispatcher's map shows, as values: every place, every van the status board lists
/// (``VanStatusBoard``) with its latest position and, for a van on shift, its next stops from
/// its run (``RunService``) with the ETA when the van is on the road (``ETAService``).
public struct FleetMap: Sendable, Hashable {
    /// One of a van's next stops.
    public struct Stop: Sendable, Hashable {
        /// The ride's reference.
        public let rideRef: String
        /// Pickup or drop-off.
        public let kind: StopKind
        /// The place's short name (first alias, else name), else the address.
        public let place: String
        /// Where it is, when known.
        public let coordinate: Coordinate?
        /// The rider, as the driver's page names her ("Jamie D.").
        public let rider: String
        /// The planner's time.
        public let plannedAt: Date
        /// When the van is expected there (or arrived, when it is there); nil when the van is not on the road.
        public let eta: Date?
        /// Against the rider's promise (``Lateness``, as the board, the alerts, `vans status` and the
        /// rider read it); nil when this stop carries no promise or nothing says yet.
        public let lateness: Lateness?
        /// Whole minutes behind the planner's time (``Lateness/behindPlanMinutes(_:plannedAt:)``).
        public let minutesBehindPlan: Int

        /// Whole minutes late against the promise; nil as ``lateness``.
        public var minutesLate: Int? { lateness?.minutes }
    }

    /// A van the board lists.
    public struct Van: Sendable, Hashable {
        /// The van's id.
        public let id: Int64
        /// What the board says of it: driver, position age, whether the position is known.
        public let status: VanStatus
        /// Its latest position, however old; nil with none.
        public let position: VanPosition?
        /// Its next stops in route order (at most ``FleetMap/nextStopCount``); empty off shift.
        public let stops: [Stop]

        /// The van's name.
        public var name: String { status.van }
        /// Whether a driver has the van on an open shift (only such a van is drawn on the road).
        public var onShift: Bool { status.driver != nil }
        /// The latest of its next stops against their promises; nil with none judged (or none left).
        public var lateness: Lateness? { stops.compactMap(\.lateness).max() }
    }

    /// How many of a van's next stops the map shows.
    public static let nextStopCount = 3

    /// Every place, by name.
    public let places: [Place]
    /// Every active van and every van on shift, by name.
    public let vans: [Van]
    /// When this was read.
    public let now: Date

    /// Creates a value.
    public init(places: [Place], vans: [Van], now: Date) {
        self.places = places
        self.vans = vans
        self.now = now
    }

    /// Reads the map as of `now` (today is `now`'s date in `timeZone`); positions older than
    /// `road`'s ``RoadSettings/positionStale`` count as unknown.
    public static func load(road: Road, eta: ETAService, pool: PGPool, timeZone: TimeZone, now: Date) async throws -> FleetMap {
        let places = try await PlaceStore(pool: pool).list().sorted { $0.name < $1.name }
        // Each van on a shift worked out once, for its status and its next stops alike.
        var roads: [Int64: VanETAs] = [:]
        for vanID in try await eta.vansWithOpenShifts() { roads[vanID] = try await eta.van(vanID, now: now) }
        let worked = roads
        let statuses = try await VanStatusBoard.load(
            pool: pool, road: { worked[$0] }, timeZone: timeZone, now: now, stale: road.settings.positionStale)
        let ids = try await pool.withConnection { conn in
            Dictionary(
                uniqueKeysWithValues: try conn.query("SELECT id, name FROM vans").map {
                    (try $0.decode(String.self, "name"), try $0.decode(Int64.self, "id"))
                })
        }
        let positions = try await road.positions.latestAll()
        let today = LocalDate(containing: now, in: timeZone)
        var vans: [Van] = []
        for status in statuses {
            guard let id = ids[status.van] else { continue }
            var stops: [Stop] = []
            if status.driver != nil {
                stops = try await nextStops(vanID: id, road: road, etas: roads[id], day: today, now: now)
            }
            vans.append(Van(id: id, status: status, position: positions[id], stops: stops))
        }
        return FleetMap(places: places, vans: vans, now: now)
    }

    /// The van's stops not yet done today, in ``RunOrder`` (the ones it arrived at first), with
    /// their ETAs from `etas` (nil: the van is not on the road).
    static func nextStops(vanID: Int64, road: Road, etas: VanETAs?, day: LocalDate, now: Date) async throws -> [Stop] {
        let run = try await road.runs.stops(vanID: vanID, on: day).filter { !$0.isDone }.sorted { a, b in
            RunOrder.precedes(
                RunOrder.Key(rideID: a.rideID, kind: a.stop, plannedAt: a.plannedAt, arrivedAt: a.arrivedAt),
                RunOrder.Key(rideID: b.rideID, kind: b.stop, plannedAt: b.plannedAt, arrivedAt: b.arrivedAt))
        }
        var arrivals: [RunOrder.Key: Date] = [:]
        if let etas {
            for estimate in etas.estimates where !estimate.here {
                arrivals[RunOrder.Key(rideID: estimate.stop.rideID, kind: estimate.stop.kind, plannedAt: .distantPast)] = estimate.arrival
            }
        }
        return run.prefix(nextStopCount).map { stop in
            let expected = stop.arrivedAt == nil ? arrivals[RunOrder.Key(rideID: stop.rideID, kind: stop.stop, plannedAt: .distantPast)] : nil
            return Stop(
                rideRef: stop.ref.rawValue, kind: stop.stop, place: stop.placeShort ?? stop.displayPlace, coordinate: stop.coordinate,
                rider: stop.riderName, plannedAt: stop.plannedAt, eta: expected ?? stop.arrivedAt,
                lateness: Lateness.of(windowEnd: stop.promise.windowEnd(at: stop.stop), arrived: stop.arrivedAt, eta: expected, now: now),
                minutesBehindPlan: Lateness.behindPlanMinutes(stop.arrivedAt ?? expected ?? now, plannedAt: stop.plannedAt))
        }
    }
}
