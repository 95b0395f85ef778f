import Foundation
import VanDomain
import VanServices

/// The driver services the simulation drives (placeholder until the road services are merged).
enum RoadServicesDesk {
    static func make(database: Database, timeZone: TimeZone, clock: SimulationClock, drivers: Int) async throws -> any DriverDesk {
        throw CampusBenchError("the road services are not merged yet")
    }
}
