import Foundation
import VanDomain
import VanPostgres
import VanServices

/// The simulation's drivers through the road services the driver routes call: shifts
/// (``ShiftService``), the van's run (``RunService``), taps (``TapService``, each with a fresh key
/// and the van's position) and positions (``PositionService``), all timed by the simulation's clock.
struct RoadServicesDesk: DriverDesk {
    let shifts: ShiftService
    let runs: RunService
    let taps: TapService
    let positions: PositionService

    /// The services over `database`, timed by `clock`, with `drivers` driver accounts (driver1…).
    static func make(database: Database, timeZone: TimeZone, clock: SimulationClock, drivers: Int) async throws -> any DriverDesk {
        var settings = RoadSettings()
        settings.noShowWait = RoadSimulation.noShowWait
        try await database.pool.withTransaction { conn in
            for index in 1...max(1, drivers) {
                try conn.execute("INSERT INTO riders (net_id, password_hash, role) VALUES (\("driver\(index)"), 'x', 'driver')")
            }
        }
        let road = VandServices.bench(database, timeZone: timeZone, clock: clock, road: settings).road
        return RoadServicesDesk(shifts: road.shifts, runs: road.runs, taps: road.taps, positions: road.positions)
    }

    func startShift(driver: NetID, van: Int64, now: Date) async throws {
        _ = try await shifts.start(driver: driver, vanID: van)
    }

    func run(driver: NetID, now: Date) async throws -> [DeskStop] {
        try await runs.run(driver: driver).stops.compactMap { stop in
            guard stop.outcome == nil, stop.rideStatus == .approved, let place = stop.coordinate else { return nil }
            return DeskStop(
                rideID: stop.rideID, pickup: stop.stop == .pickup, place: place, promise: stop.promise,
                plannedAt: stop.plannedAt, wheelchair: stop.wheelchair, arrivedAt: stop.arrivedAt,
                noShowFrom: stop.noShowAllowedFrom)
        }
    }

    func tap(driver: NetID, ride: UUID, pickup: Bool, action: DeskAction, at place: Coordinate, now: Date) async throws -> String? {
        let kind: TapAction =
            switch action {
            case .arrived: .arrived
            case .boarded: .boarded
            case .noShow: .noShow
            case .droppedOff: .droppedOff
            }
        let fix = try PositionFix(lat: place.latitude, lon: place.longitude, accuracyMeters: 10, at: now)
        do {
            _ = try await taps.tap(
                driver: driver, TapRequest(tapKey: UUID(), rideID: ride, stop: pickup ? .pickup : .dropoff, action: kind, position: fix))
            return nil
        } catch let error as RoadError {
            return error.description
        }
    }

    func position(driver: NetID, _ place: Coordinate, now: Date) async throws {
        guard let shift = try await shifts.current(driver: driver) else { return }
        let fix = try PositionFix(lat: place.latitude, lon: place.longitude, accuracyMeters: 10, at: now)
        _ = try await positions.record(fix, vanID: shift.vanID, from: .driver(driver))
    }
}
