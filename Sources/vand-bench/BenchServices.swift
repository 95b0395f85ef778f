import Foundation
import VanPostgres
import VanServices

extension VandServices {
    /// The office's services over a benchmark's own database, wired as `vand` and `vanadmin` wire
    /// them (``VandServices``): the default settings in `timeZone`, `road` for the van on the road,
    /// timed by `clock` (a simulation's own).
    static func bench(
        _ database: Database, timeZone: TimeZone, clock: any TimeSource = SystemTimeSource(),
        road: RoadSettings = RoadSettings()
    ) -> VandServices {
        var settings = VandSettings(database: DatabaseSettings(target: .server(database.pool.configuration.connectionString)), timeZone: timeZone)
        settings.road = road
        return VandServices(settings: settings, pool: database.pool, clock: clock)
    }
}
