import Foundation
import VanDomain
import VanScheduler
import VanServices

/// One model's campus day on one database: install the fleet, apply the model, book the
/// requests, read the routes back, measure and check them.
struct CampusDay {
    /// The options of the run.
    let options: CampusBenchOptions
    /// The service's time zone.
    let timeZone: TimeZone

    /// What one model came to.
    struct Result: Sendable {
        var model: CampusModel
        var tally: CampusDayRun.Tally
        var routes: CampusRoutes
        /// Route rules broken, in words (empty: the routes check).
        var problems: [String]
    }

    /// The requests of the day.
    var generator: CampusDayGenerator {
        CampusDayGenerator(timeZone: timeZone, requests: options.rides, seed: options.seed)
    }

    /// Runs `model` on `database` (fresh and migrated).
    func run(_ model: CampusModel, on database: Database, requests: [CampusRequest]) async throws -> Result {
        let fleet = CampusFleet(vans: options.vans, seats: options.seats)
        // One net ID per request (CampusDayRun): a generated rider may ask twice at overlapping times.
        let sites = try await fleet.install(into: database, riders: max(generator.requests, requests.count))
        try await model.apply(to: database)
        let tally = try await CampusDayRun(database: database, model: model, sites: sites, timeZone: timeZone)
            .book(requests, seed: options.seed)
        let day = generator.midnight
        let routes = try await CampusRoutes.load(from: database, timeZone: timeZone, around: day)
        let width = try await ServiceCalendarStore(pool: database.pool, timeZone: timeZone).scheduler(around: day).windowWidth
        let problems = CampusRouteCheck.problems(routes, promised: tally.promised, windowWidth: width)
        return Result(model: model, tally: tally, routes: routes, problems: problems)
    }
}
