import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// The dispatcher's day board: every van's route over one local day, stop by stop in driving
/// order, with the planned time, what the driver tapped there (``stop_actuals``), the load
/// aboard after the stop, and how late the stop runs against its promised window: the actual
/// arrival once tapped, else (on a van on the road today) the ETA from ``ETAService``.
///
/// Every stop of the day is read slim (times, promise, load, taps): enough for the order, the
/// load, the lateness and the ETAs. The rides in full (places, rider's name) are read only for
/// the stops the board shows: each van's next stop, and one page of the chosen van's stops.
/// A day of 10,000 rides decoded in full took most of the board's 200 ms.
///
/// Four statements whatever the day holds (the vans with their open shifts and positions; the
/// day's rides, slim; their actual times; the shown rides in full), plus two a van on a shift
/// for its fix (``ETAService``) when the day is today, on one connection.
public struct DayBoard: Sendable {
    /// One stop of a van's route.
    public struct Stop: Sendable {
        /// Boarding or alighting.
        public let kind: StopKind
        /// The planned time.
        public let plannedAt: Date
        /// The ride's id.
        public let rideID: UUID
        /// The ride's reference.
        public let ref: RideRef
        /// The ride's status.
        public let status: RideStatus
        /// What the rider was promised.
        public let promise: RidePromise
        /// Seats taken after the stop.
        public let seatsAboard: Int
        /// Wheelchair positions taken after the stop.
        public let wheelchairsAboard: Int
        /// When the driver tapped "arrived" there.
        public let arrivedAt: Date?
        /// When the driver tapped the stop's outcome (boarded, no-show, dropped off).
        public let doneAt: Date?
        /// The outcome tapped (`boarded`, `no_show`, `dropped_off`).
        public let outcome: TapAction?
        /// The van's estimated arrival (a van on the road, the stop not reached).
        public let eta: Date?
        /// The end of the promised window, on the stop that carries the promise (a pickup
        /// ride's pickup, an arrive-by ride's drop-off); nil on the other stop.
        public let windowEnd: Date?

        /// The promise window, on the stop that carries it.
        public var window: DateInterval? { windowEnd == nil ? nil : promise.window }

        /// Against the promised window (``Lateness/of(windowEnd:arrived:eta:now:)``): by the actual
        /// arrival once tapped (or the outcome, without an arrival), else by the ETA, else by the
        /// board's now once past the window; nil when unknown or with no window on this stop.
        public let lateness: Lateness?
    }

    /// A shown stop's ride in full: its places, and its rider's name if known.
    public struct Shown: Sendable {
        /// The ride.
        public let ride: Ride
        /// The rider's name, if known.
        public let riderName: String?
    }

    /// Which of a van's stops the board shows in full: ``stopsPerPage`` of them.
    public enum StopPage: Sendable, Equatable {
        /// The page with the van's first stop not done (its place in the day now); the first
        /// page when every stop is done.
        case current
        /// The `n`th page, from 1 (past the last: the last).
        case number(Int)
        /// The page with the ride's first stop on this van; the current page without it.
        case ride(RideRef)
    }

    /// Stops a page of a van's day shows: a whole ordinary day of one van (about 75 stops on a
    /// busy 300-ride day of 8 vans) within the console's 50 kB page budget, and a van's day of
    /// thousands of stops paged rather than sent whole.
    public static let stopsPerPage = 100

    /// One van over the day.
    public struct VanRoute: Sendable {
        /// The van's id.
        public let id: Int64
        /// Its name.
        public let name: String
        /// Its seats.
        public let seats: Int
        /// Its wheelchair positions.
        public let wheelchairPositions: Int
        /// The driver's net ID on its open shift; nil with none.
        public let driver: String?
        /// The driver's name, if known.
        public let driverName: String?
        /// When its latest position was taken; nil with none.
        public let positionAt: Date?
        /// Whether ``ETAService`` has it on the road now (its ETAs are on the stops).
        public let onRoad: Bool
        /// Its stops, in driving order.
        public let stops: [Stop]
        /// The stops shown in full (one page of the chosen van's; empty on the others).
        public let shown: Range<Int>
        /// The page ``shown`` is, from 1, and how many pages the van's day has.
        public let page: (number: Int, of: Int)

        /// Rides on the route.
        public var rideCount: Int { Set(stops.map(\.rideID)).count }

        /// Its next stop: the first not done.
        public var next: Stop? { stops.first { $0.outcome == nil } }
    }

    /// The local day.
    public let day: LocalDate
    /// Every active van and every van with a ride that day, by name.
    public let vans: [VanRoute]
    /// The rides of the shown stops in full, by id.
    public let shown: [UUID: Shown]

    /// Every ride on the board.
    public var rideCount: Int { vans.reduce(0) { $0 + $1.rideCount } }

    /// The board of `day` as of `now`. Rides pending or approved on a van, and the completed
    /// and no-show rides of the day (their stops as tapped), picked up that day in `timeZone`.
    /// A no-show's drop-off is no stop. With `eta` and `day` today, the stops not reached of
    /// each van on the road carry its ETA. The rides shown in full: each van's next stop's, and
    /// those of `page` of van `chosen`'s stops.
    public static func load(
        pool: PGPool, day: LocalDate, timeZone: TimeZone, now: Date, eta: ETAService?,
        van chosen: Int64? = nil, page: StopPage = .current
    ) async throws -> DayBoard {
        let interval = day.interval(in: timeZone)
        let (vanRows, runs) = try await pool.withConnection { conn in
            let vans = try conn.query(
                """
                SELECT v.id, v.name, v.seats, v.wheelchair_positions, s.driver_net_id, d.name AS driver_name, p.at AS position_at
                FROM vans v
                LEFT JOIN shifts s ON s.van_id = v.id AND s.ended_at IS NULL
                LEFT JOIN riders d ON d.net_id = s.driver_net_id
                LEFT JOIN van_positions p ON p.van_id = v.id
                WHERE v.active OR s.id IS NOT NULL
                   OR v.id IN (SELECT van_id FROM rides WHERE van_id IS NOT NULL
                               AND pickup_at >= \(interval.start) AND pickup_at < \(interval.end))
                ORDER BY v.name
                """
            ).map { row in
                (
                    id: try row.decode(Int64.self, "id"), name: try row.decode(String.self, "name"),
                    seats: try row.decode(Int.self, "seats"), wheelchairs: try row.decode(Int.self, "wheelchair_positions"),
                    driver: try row.decode(String?.self, "driver_net_id"), driverName: try row.decode(String?.self, "driver_name"),
                    positionAt: try row.decode(Date?.self, "position_at")
                )
            }
            // The day's runs, slim, from the one reader of runs (``RoadRuns``: prepared, binary).
            let runs = try RoadRuns.read(conn, span: interval, rides: .ofTheDay)
            return (vans, runs)
        }
        var etas: [Int64: [RideStop: Date]] = [:]
        let isToday = LocalDate(containing: now, in: timeZone) == day
        if let eta, isToday {
            // Every van on a shift, worked out as ``ETAService/van(_:now:)`` does, from its fix
            // (two statements a van) and the rides this board read (not read again per van).
            let onShift = vanRows.filter { $0.driver != nil }.map(\.id)
            let stale = eta.settings.positionStale
            // A run reaching past this day (a shift from the evening before, or late in the evening
            // into the next day) reads its own rides, as ``ETAService/van(_:now:)`` does.
            let (fixes, wider) = try await pool.withConnection { conn in
                var fixes: [(Int64, ETAService.RoadFix)] = [], wider: [VanETAs] = []
                for van in onShift {
                    guard let fix = try ETAService.fix(conn, vanID: van, now: now, stale: stale, timeZone: timeZone) else { continue }
                    if fix.runSpan.start < interval.start || fix.runSpan.end > interval.end {
                        if let road = try ETAService.van(conn, vanID: van, now: now, stale: stale, timeZone: timeZone) { wider.append(road) }
                    } else {
                        fixes.append((van, fix))
                    }
                }
                return (fixes, wider)
            }
            var roads = wider
            for (vanID, fix) in fixes {
                // The ETA's run: this board's run of the van, the rides still holding it in the fix's span.
                var run = runs[vanID] ?? VanRun(vanID: vanID, rides: [])
                run.stops.removeAll { !$0.ride.status.holdsVan || !(fix.runSpan.start <= $0.ride.pickupAt && $0.ride.pickupAt < fix.runSpan.end) }
                roads.append(ETAService.etas(fix: fix, run: run, now: now))
            }
            for road in roads {
                var byStop: [RideStop: Date] = [:]
                for estimate in road.estimates {
                    byStop[RideStop(ride: estimate.stop.rideID, kind: estimate.stop.kind == .pickup ? .pickup : .dropoff)] = estimate.arrival
                }
                etas[road.vanID] = byStop
            }
        }
        var routes: [VanRoute] = []
        var shownIDs = Set<UUID>()
        for van in vanRows {
            var seats = 0, wheelchairs = 0
            let vanETAs = etas[van.id]
            let stops = (runs[van.id]?.stops ?? []).map { stop -> Stop in
                let ride = stop.ride, actual = stop.actual
                if !(stop.kind == .pickup && actual.outcome == .noShow) {
                    let sign = stop.kind == .pickup ? 1 : -1
                    seats += sign * ride.seats
                    wheelchairs += sign * (ride.wheelchair ? 1 : 0)
                }
                let eta = actual.outcome == nil ? vanETAs?[RideStop(ride: ride.id, kind: stop.kind)] : nil
                // A stop not done today is at least as late as now; on another day, not recorded (unknown).
                let judgedNow = actual.outcome == nil && isToday ? now : .distantPast
                return Stop(
                    kind: stop.kind, plannedAt: stop.plannedAt, rideID: ride.id, ref: ride.ref, status: ride.status, promise: ride.promise,
                    seatsAboard: seats, wheelchairsAboard: wheelchairs, arrivedAt: actual.arrivedAt, doneAt: actual.doneAt,
                    outcome: actual.outcome, eta: eta, windowEnd: stop.windowEnd, lateness: stop.lateness(eta: eta, now: judgedNow))
            }
            let size = stopsPerPage
            let pages = max(1, (stops.count + size - 1) / size)
            let current = (stops.firstIndex { $0.outcome == nil }).map { $0 / size + 1 } ?? 1
            let number: Int =
                switch page {
                case .number(let n): min(max(1, n), pages)
                case .current: current
                case .ride(let ref): (stops.firstIndex { $0.ref == ref }).map { $0 / size + 1 } ?? current
                }
            let shown = van.id == chosen ? min(stops.count, (number - 1) * size)..<min(stops.count, number * size) : 0..<0
            for index in shown { shownIDs.insert(stops[index].rideID) }
            if let next = stops.first(where: { $0.outcome == nil }) { shownIDs.insert(next.rideID) }
            routes.append(
                VanRoute(
                    id: van.id, name: van.name, seats: van.seats, wheelchairPositions: van.wheelchairs, driver: van.driver,
                    driverName: van.driverName, positionAt: van.positionAt, onRoad: vanETAs != nil, stops: stops,
                    shown: shown, page: (number, pages)))
        }
        // The shown rides in full (a page and a stop a van: a few hundred at most).
        var shown: [UUID: Shown] = [:]
        if !shownIDs.isEmpty {
            let ids = shownIDs.postgresArrayLiteral
            for listing in try await pool.withConnection({ conn in try RideQueries.listings(conn, where: "r.id = ANY(\(ids)::uuid[])") }) {
                shown[listing.ride.id] = Shown(ride: listing.ride, riderName: listing.riderName)
            }
        }
        return DayBoard(day: day, vans: routes, shown: shown)
    }

    /// A ride's pickup or drop-off.
    struct RideStop: Hashable {
        let ride: UUID
        let kind: StopKind
    }

    /// The actual times of one ride's stops (for the ride's page): arrival and outcome at the
    /// pickup and at the drop-off, as tapped.
    public struct RideActuals: Sendable {
        /// "Arrived" at the pickup.
        public var pickupArrived: Date?
        /// Boarded or no-show at the pickup.
        public var pickupDone: Date?
        /// The pickup's outcome.
        public var pickupOutcome: TapAction?
        /// "Arrived" at the drop-off.
        public var dropoffArrived: Date?
        /// Dropped off.
        public var dropoffDone: Date?
    }

    /// The taps standing on ride `id`'s stops.
    public static func actuals(pool: PGPool, ride id: UUID) async throws -> RideActuals {
        try await pool.withConnection { conn in
            var actuals = RideActuals()
            for row in try conn.query("SELECT stop, arrived_at, departed_at, outcome FROM stop_actuals WHERE ride_id = \(id)") {
                let arrived = try row.decode(Date?.self, "arrived_at"), done = try row.decode(Date?.self, "departed_at")
                if try row.decode(String.self, "stop") == "pickup" {
                    actuals.pickupArrived = arrived
                    actuals.pickupDone = done
                    actuals.pickupOutcome = try row.decode(String?.self, "outcome").flatMap(TapAction.init(rawValue:))
                } else {
                    actuals.dropoffArrived = arrived
                    actuals.dropoffDone = done
                }
            }
            return actuals
        }
    }
}
