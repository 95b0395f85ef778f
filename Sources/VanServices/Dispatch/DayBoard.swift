import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// The dispatcher's day board: every van's route over one local day, stop by stop in driving
/// order, with the planned time, what the driver tapped there (``stop_actuals``), the load
/// aboard after the stop, and how late the stop runs against its promised window: the actual
/// arrival once tapped, else (on a van on the road today) the ETA from ``ETAService``.
///
/// Read in three statements whatever the day holds (the vans with their open shifts and
/// positions; the day's rides with their riders; those rides' actual times), plus the reads of
/// ``ETAService/van(_:now:)`` for each van on a shift when the day is today, on one connection.
public struct DayBoard: Sendable {
    /// One stop of a van's route.
    public struct Stop: Sendable {
        /// Boarding or alighting.
        public let kind: StopKind
        /// The planned time.
        public let plannedAt: Date
        /// The ride.
        public let ride: Ride
        /// The rider's name, if known.
        public let riderName: String?
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
        public var window: DateInterval? { windowEnd == nil ? nil : ride.promise.window }

        /// Seconds late against the promised window: by the actual arrival once tapped (or the
        /// outcome, without an arrival), else by the ETA; 0 inside it; nil when unknown (no
        /// window on this stop, or neither an actual time nor an ETA).
        public var secondsLate: TimeInterval? {
            guard let windowEnd, let seen = arrivedAt ?? doneAt ?? eta else { return nil }
            return max(0, seen.timeIntervalSince(windowEnd))
        }
    }

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

        /// Rides on the route.
        public var rideCount: Int { Set(stops.map(\.ride.id)).count }
    }

    /// The local day.
    public let day: LocalDate
    /// Every active van and every van with a ride that day, by name.
    public let vans: [VanRoute]

    /// Every ride on the board.
    public var rideCount: Int { vans.reduce(0) { $0 + $1.rideCount } }

    /// The board of `day` as of `now`. Rides pending or approved on a van, and the completed
    /// and no-show rides of the day (their stops as tapped), picked up that day in `timeZone`.
    /// A no-show's drop-off is no stop. With `eta` and `day` today, the stops not reached of
    /// each van on the road carry its ETA.
    public static func load(pool: PGPool, day: LocalDate, timeZone: TimeZone, now: Date, eta: ETAService?) async throws -> DayBoard {
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
            // The hot read of the board: prepared, results in binary, columns by position (the
            // ride's columns, then its rider's name); the stops' actual times in a second statement
            // by ride id (the view's grouping column: an index scan of those rides' taps).
            let rideQuery: SQLQuery = """
                SELECT ri.name, base.*
                FROM (\(RideRecord.select)
                      WHERE r.van_id IS NOT NULL AND r.status IN ('pending', 'approved', 'completed', 'no_show')
                        AND r.pickup_at >= \(interval.start) AND r.pickup_at < \(interval.end)) AS base
                LEFT JOIN riders ri ON ri.net_id = base.net_id
                """
            // One shared entry a ride (a class: the stops and the ETAs take it without copying the ride).
            var rides = try conn.query(rideQuery.prepared(), results: .binary) { row in
                Entry(ride: try RideRecord.ride(row, from: 1), riderName: try row.decode(String?.self, at: 0))
            }
            if !rides.isEmpty {
                var actuals: [RideStop: Actual] = [:]
                let ids = rides.map(\.ride.id).postgresArrayLiteral
                let actualQuery: SQLQuery = """
                    SELECT ride_id, stop, arrived_at, departed_at, outcome FROM stop_actuals WHERE ride_id = ANY(\(ids)::uuid[])
                    """
                for (key, actual) in try conn.query(actualQuery.prepared(), results: .binary, rows: { row in
                    (RideStop(ride: try row.decode(at: 0), kind: StopKind(rawValue: try row.decode(String.self, at: 1)) ?? .pickup),
                     Actual(arrived: try row.decode(at: 2), done: try row.decode(at: 3),
                            outcome: try row.decode(String?.self, at: 4).flatMap(TapAction.init(rawValue:))))
                }) {
                    actuals[key] = actual
                }
                // Only the rides with a tap get a new entry.
                for index in rides.indices {
                    let pickup = actuals[RideStop(ride: rides[index].ride.id, kind: .pickup)]
                    let dropoff = actuals[RideStop(ride: rides[index].ride.id, kind: .dropoff)]
                    if pickup != nil || dropoff != nil {
                        rides[index] = Entry(ride: rides[index].ride, riderName: rides[index].riderName, pickup: pickup ?? .none, dropoff: dropoff ?? .none)
                    }
                }
            }
            return (vans, rides)
        }
        var etas: [Int64: [RideStop: Date]] = [:]
        if let eta, LocalDate(containing: now, in: timeZone) == day {
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
            for road in wider {
                var byStop: [RideStop: Date] = [:]
                for estimate in road.estimates {
                    byStop[RideStop(ride: estimate.stop.rideID, kind: estimate.stop.kind == .pickup ? .pickup : .dropoff)] = estimate.arrival
                }
                etas[road.vanID] = byStop
            }
            var indicesByVan: [Int64: [Int]] = [:]
            for index in rideRows.indices {
                if let van = rideRows[index].ride.vanID { indicesByVan[van, default: []].append(index) }
            }
            for (vanID, fix) in fixes {
                let runRides = (indicesByVan[vanID] ?? []).compactMap { index -> ETAService.RunRide? in
                    let entry = rideRows[index], ride = entry.ride
                    guard ride.status.holdsVan, fix.runSpan.start <= ride.pickupAt, ride.pickupAt < fix.runSpan.end else { return nil }
                    return ETAService.RunRide(
                        ride: VanETAs.RoadRide(id: ride.id, netID: ride.netID.rawValue, status: ride.status, promise: ride.promise, pickupAt: ride.pickupAt),
                        dropoffAt: ride.estimatedDropoffAt, pickup: ride.pickup.coordinate, dropoff: ride.dropoff.coordinate,
                        wheelchair: ride.needsWheelchair,
                        pickupArrived: entry.pickup.arrived, pickupDone: entry.pickup.outcome != nil,
                        dropoffArrived: entry.dropoff.arrived, dropoffDone: entry.dropoff.outcome != nil)
                }
                var byStop: [RideStop: Date] = [:]
                for estimate in ETAService.etas(vanID: vanID, fix: fix, rides: runRides, now: now).estimates {
                    byStop[RideStop(ride: estimate.stop.rideID, kind: estimate.stop.kind == .pickup ? .pickup : .dropoff)] = estimate.arrival
                }
                etas[vanID] = byStop
            }
        }
        var byVan: [Int64: [(at: Date, kind: StopKind, index: Int)]] = [:]
        for (index, entry) in rideRows.enumerated() {
            guard let vanID = entry.ride.vanID else { continue }
            byVan[vanID, default: []].append((entry.ride.pickupAt, .pickup, index))
            if entry.pickup.outcome != .noShow {
                byVan[vanID, default: []].append((max(entry.ride.pickupAt, entry.ride.estimatedDropoffAt), .dropoff, index))
            }
        }
        let vans = vanRows.map { van -> VanRoute in
            var events = byVan[van.id] ?? []
            // Driving order: by planned time, a drop-off before a pickup at the same time (as the
            // scheduler orders them), then by ride.
            events.sort { a, b in
                if a.at != b.at { return a.at < b.at }
                if a.kind != b.kind { return a.kind == .dropoff }
                return rideRows[a.index].ride.id.uuidString < rideRows[b.index].ride.id.uuidString
            }
            var seats = 0, wheelchairs = 0
            let vanETAs = etas[van.id]
            let stops = events.map { event -> Stop in
                let entry = rideRows[event.index]
                let ride = entry.ride
                let actual = event.kind == .pickup ? entry.pickup : entry.dropoff
                if !(event.kind == .pickup && actual.outcome == .noShow) {
                    let sign = event.kind == .pickup ? 1 : -1
                    seats += sign * ride.seatsNeeded
                    wheelchairs += sign * ride.wheelchairPositionsNeeded
                }
                let promised = (event.kind == .pickup) == (ride.promise.kind == .pickup)
                return Stop(kind: event.kind, plannedAt: event.at, ride: ride, riderName: entry.riderName,
                            seatsAboard: seats, wheelchairsAboard: wheelchairs, arrivedAt: actual.arrived, doneAt: actual.done,
                            outcome: actual.outcome, eta: actual.outcome == nil ? vanETAs?[RideStop(ride: ride.id, kind: event.kind)] : nil,
                            windowEnd: promised ? ride.promise.window.end : nil)
            }
            return VanRoute(id: van.id, name: van.name, seats: van.seats, wheelchairPositions: van.wheelchairs, driver: van.driver,
                            driverName: van.driverName, positionAt: van.positionAt, onRoad: vanETAs != nil, stops: stops)
        }
        return DayBoard(day: day, vans: vans)
    }

    /// A ride read for the board, with its rider's name and what was tapped at its stops.
    final class Entry: Sendable {
        let ride: Ride
        let riderName: String?
        let pickup: Actual
        let dropoff: Actual

        init(ride: Ride, riderName: String?, pickup: Actual = .none, dropoff: Actual = .none) {
            self.ride = ride
            self.riderName = riderName
            self.pickup = pickup
            self.dropoff = dropoff
        }
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
