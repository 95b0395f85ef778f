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
    public static func load(pool: PGPool, day: LocalDate, timeZone: TimeZone, now: Date, eta: ETAService?,
                            van chosen: Int64? = nil, page: StopPage = .current) async throws -> DayBoard {
        let interval = day.interval(in: timeZone)
        let (vanRows, rideRows) = try await pool.withConnection { conn in
            let vans = try conn.query("""
                SELECT v.id, v.name, v.seats, v.wheelchair_positions, s.driver_net_id, d.name AS driver_name, p.at AS position_at
                FROM vans v
                LEFT JOIN shifts s ON s.van_id = v.id AND s.ended_at IS NULL
                LEFT JOIN riders d ON d.net_id = s.driver_net_id
                LEFT JOIN van_positions p ON p.van_id = v.id
                WHERE v.active OR s.id IS NOT NULL
                   OR v.id IN (SELECT van_id FROM rides WHERE van_id IS NOT NULL
                               AND pickup_at >= \(interval.start) AND pickup_at < \(interval.end))
                ORDER BY v.name
                """).map { row in
                (id: try row.decode(Int64.self, "id"), name: try row.decode(String.self, "name"),
                 seats: try row.decode(Int.self, "seats"), wheelchairs: try row.decode(Int.self, "wheelchair_positions"),
                 driver: try row.decode(String?.self, "driver_net_id"), driverName: try row.decode(String?.self, "driver_name"),
                 positionAt: try row.decode(Date?.self, "position_at"))
            }
            // The hot read of the board: prepared, binary, columns by position, no joins; the
            // stops' actual times in a second statement by ride id (the view's grouping column:
            // an index scan of those rides' taps).
            let rideQuery: SQLQuery = """
                SELECT id, ref, van_id, status, pickup_at, estimated_dropoff_at, promise, window_start, window_end,
                       needs_wheelchair, companions, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon, net_id
                FROM rides
                WHERE van_id IS NOT NULL AND status IN ('pending', 'approved', 'completed', 'no_show')
                  AND pickup_at >= \(interval.start) AND pickup_at < \(interval.end)
                """
            var rides = try conn.query(rideQuery.prepared(), results: .binary) { row in
                guard let status = RideStatus(rawValue: try row.decode(at: 3)), let promise = RidePromise.Kind(rawValue: try row.decode(at: 6)) else {
                    throw PGError(kind: .decoding, message: "ride has an unknown status or promise")
                }
                func coordinate(_ at: Int) throws -> Coordinate? {
                    guard let lat: Double = try row.decode(at: at), let lon: Double = try row.decode(at: at + 1) else { return nil }
                    return try Coordinate(latitude: lat, longitude: lon)
                }
                return Entry(id: try row.decode(at: 0), ref: try RideRef(validating: try row.decode(String.self, at: 1)),
                             vanID: try row.decode(at: 2), status: status, pickupAt: try row.decode(at: 4), dropoffAt: try row.decode(at: 5),
                             promise: RidePromise(kind: promise, window: DateInterval(start: try row.decode(at: 7), end: try row.decode(at: 8))),
                             wheelchair: try row.decode(at: 9), companions: try row.decode(at: 10),
                             pickup: try coordinate(11), dropoff: try coordinate(13), netID: try row.decode(at: 15))
            }
            if !rides.isEmpty {
                let ids = rides.map(\.id).postgresArrayLiteral
                let actualQuery: SQLQuery = """
                    SELECT ride_id, stop, arrived_at, departed_at, outcome FROM stop_actuals WHERE ride_id = ANY(\(ids)::uuid[])
                    """
                var actuals: [RideStop: Actual] = [:]
                for (key, actual) in try conn.query(actualQuery.prepared(), results: .binary, rows: { row in
                    (RideStop(ride: try row.decode(at: 0), kind: StopKind(rawValue: try row.decode(String.self, at: 1)) ?? .pickup),
                     Actual(arrived: try row.decode(at: 2), done: try row.decode(at: 3),
                            outcome: try row.decode(String?.self, at: 4).flatMap(TapAction.init(rawValue:))))
                }) {
                    actuals[key] = actual
                }
                for index in rides.indices {
                    rides[index].pickupActual = actuals[RideStop(ride: rides[index].id, kind: .pickup)] ?? .none
                    rides[index].dropoffActual = actuals[RideStop(ride: rides[index].id, kind: .dropoff)] ?? .none
                }
            }
            return (vans, rides)
        }
        var indicesByVan: [Int64: [Int]] = [:]
        for index in rideRows.indices {
            if let van = rideRows[index].vanID { indicesByVan[van, default: []].append(index) }
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
                let runRides = (indicesByVan[vanID] ?? []).compactMap { index -> ETAService.RunRide? in
                    let ride = rideRows[index]
                    guard ride.status.holdsVan, fix.runSpan.start <= ride.pickupAt, ride.pickupAt < fix.runSpan.end else { return nil }
                    return ETAService.RunRide(
                        ride: VanETAs.RoadRide(id: ride.id, netID: ride.netID, status: ride.status, promise: ride.promise, pickupAt: ride.pickupAt),
                        dropoffAt: ride.dropoffAt, pickup: ride.pickup, dropoff: ride.dropoff, wheelchair: ride.wheelchair,
                        pickupArrived: ride.pickupActual.arrived, pickupDone: ride.pickupActual.outcome != nil,
                        dropoffArrived: ride.dropoffActual.arrived, dropoffDone: ride.dropoffActual.outcome != nil)
                }
                roads.append(ETAService.etas(vanID: vanID, fix: fix, rides: runRides, now: now))
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
            var events: [(at: Date, kind: StopKind, index: Int)] = []
            for index in indicesByVan[van.id] ?? [] {
                let ride = rideRows[index]
                events.append((ride.pickupAt, .pickup, index))
                if ride.pickupActual.outcome != .noShow {
                    events.append((RunOrder.plannedDropoff(pickupAt: ride.pickupAt, dropoffAt: ride.dropoffAt), .dropoff, index))
                }
            }
            // The plan's order (``RunOrder`` without arrivals): the board lists the day as planned.
            events.sort { a, b in
                RunOrder.precedes(RunOrder.Key(rideID: rideRows[a.index].id, kind: a.kind, plannedAt: a.at),
                                  RunOrder.Key(rideID: rideRows[b.index].id, kind: b.kind, plannedAt: b.at))
            }
            var seats = 0, wheelchairs = 0
            let vanETAs = etas[van.id]
            let stops = events.map { event -> Stop in
                let ride = rideRows[event.index]
                let actual = event.kind == .pickup ? ride.pickupActual : ride.dropoffActual
                if !(event.kind == .pickup && actual.outcome == .noShow) {
                    let sign = event.kind == .pickup ? 1 : -1
                    seats += sign * Ride.seats(wheelchair: ride.wheelchair, companions: ride.companions)
                    wheelchairs += sign * (ride.wheelchair ? 1 : 0)
                }
                let eta = actual.outcome == nil ? vanETAs?[RideStop(ride: ride.id, kind: event.kind)] : nil
                let windowEnd = ride.promise.windowEnd(at: event.kind)
                // A stop not done today is at least as late as now; on another day, not recorded (unknown).
                let judgedNow = actual.outcome == nil && isToday ? now : .distantPast
                return Stop(kind: event.kind, plannedAt: event.at, rideID: ride.id, ref: ride.ref, status: ride.status, promise: ride.promise,
                            seatsAboard: seats, wheelchairsAboard: wheelchairs, arrivedAt: actual.arrived, doneAt: actual.done,
                            outcome: actual.outcome, eta: eta, windowEnd: windowEnd,
                            lateness: Lateness.of(windowEnd: windowEnd, arrived: actual.arrived ?? actual.done, eta: eta, now: judgedNow))
            }
            let size = stopsPerPage
            let pages = max(1, (stops.count + size - 1) / size)
            let current = (stops.firstIndex { $0.outcome == nil }).map { $0 / size + 1 } ?? 1
            let number: Int = switch page {
            case .number(let n): min(max(1, n), pages)
            case .current: current
            case .ride(let ref): (stops.firstIndex { $0.ref == ref }).map { $0 / size + 1 } ?? current
            }
            let shown = van.id == chosen ? min(stops.count, (number - 1) * size)..<min(stops.count, number * size) : 0..<0
            for index in shown { shownIDs.insert(stops[index].rideID) }
            if let next = stops.first(where: { $0.outcome == nil }) { shownIDs.insert(next.rideID) }
            routes.append(VanRoute(id: van.id, name: van.name, seats: van.seats, wheelchairPositions: van.wheelchairs, driver: van.driver,
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

    /// A ride of the day as the board reads it: what orders, loads and times its stops.
    struct Entry: Sendable {
        let id: UUID
        let ref: RideRef
        let vanID: Int64?
        let status: RideStatus
        let pickupAt: Date
        let dropoffAt: Date
        let promise: RidePromise
        let wheelchair: Bool
        let companions: Int
        let pickup: Coordinate?
        let dropoff: Coordinate?
        let netID: String
        var pickupActual = Actual.none
        var dropoffActual = Actual.none
    }

    /// What the driver tapped at one stop.
    struct Actual: Sendable {
        let arrived: Date?
        let done: Date?
        let outcome: TapAction?

        /// Nothing tapped.
        static let none = Actual(arrived: nil, done: nil, outcome: nil)
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
