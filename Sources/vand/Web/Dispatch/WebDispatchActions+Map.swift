import Foundation
import VanServices

extension WebDispatchActions {
    /// The fleet's map as of now: places, vans, positions and next stops (``FleetMap/load``).
    func fleetMap() async throws -> FleetMap {
        try await FleetMap.load(road: road, eta: eta, pool: pool, timeZone: timeZone, now: now)
    }
}
