import Foundation
import VanDomain
import VanServices

/// Every call the driver's pages make into the road services, in one place. No rule lives
/// here: shifts, taps, undo and positions are the road services' (VanServices/Road).
struct WebDriverActions: Sendable {
    let road: Road
    let vans: VanStore
    let time: any TimeSource

    var now: Date { time.now }
    var settings: RoadSettings { road.settings }

    /// The driver's open shift, if any.
    func shift(_ driver: NetID) async throws -> Shift? {
        try await road.shifts.current(driver: driver)
    }

    /// Vans a driver may start a shift on: active, and no open shift on them.
    func freeVans() async throws -> [Van] {
        let taken = Set(try await road.shifts.open().map(\.vanID))
        return try await vans.list(includeRetired: false).filter { $0.active && !taken.contains($0.id) }
    }

    /// Throws ``RoadError`` (van taken, already on a shift, not a driver, no such van).
    func start(_ driver: NetID, vanID: Int64) async throws -> Shift {
        try await road.shifts.start(driver: driver, vanID: vanID)
    }

    /// Throws ``RoadError/noOpenShift``.
    func end(_ driver: NetID) async throws -> Shift {
        try await road.shifts.end(driver: driver)
    }

    /// The open shift's run today; throws ``RoadError/noOpenShift``.
    func run(_ driver: NetID) async throws -> DriverRun {
        try await road.runs.run(driver: driver)
    }

    /// Records a tap once per key; throws ``RoadError`` with the refusal.
    func tap(_ request: TapRequest, by driver: NetID) async throws -> TapResult {
        try await road.taps.tap(driver: driver, request)
    }

    /// Undoes the driver's own tap within the undo window; throws ``RoadError``.
    func undo(_ tapKey: UUID, by driver: NetID) async throws -> StopTap {
        try await road.taps.undo(driver: driver, tapKey: tapKey)
    }

    /// Records the phone's position for the van of the driver's open shift.
    /// - Throws: ``RoadError/noOpenShift``, ``RoadError/notYourVan``.
    func position(_ fix: PositionFix, by driver: NetID) async throws {
        guard let shift = try await road.shifts.current(driver: driver) else { throw RoadError.noOpenShift }
        _ = try await road.positions.record(fix, vanID: shift.vanID, from: .driver(driver))
    }
}
