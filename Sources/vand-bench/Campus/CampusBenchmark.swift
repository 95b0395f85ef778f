import Foundation
import Logging
import NIOPosix
import VanPostgres
import VanServices

/// `vand-bench campus [--seed N] [--rides N] [--vans N] [--seats N]`: a generated campus day
/// booked in arrival order through `BookingService`, shared rides against the one-rider model,
/// each on a fresh database of a throwaway embedded PostgreSQL. Prints the table and the route
/// check; returns false when a route breaks a rule.
struct CampusBenchmark {
    let options: CampusBenchOptions

    func run() async throws -> Bool {
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let timeZone = TimeZone(identifier: "America/New_York")!
        let day = CampusDay(options: options, timeZone: timeZone)
        let requests = day.generator.generate()
        let cluster = EmbeddedPostgres(
            directory: "/tmp/vand-bench-campus-\(ProcessInfo.processInfo.processIdentifier)", ephemeral: true,
            port: 55_433, logger: logger)
        try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
        defer {
            try? cluster.forceStop(mode: "fast")
            try? FileManager.default.removeItem(atPath: cluster.directory)
        }
        var results: [CampusDay.Result] = []
        for model in CampusModel.allCases {
            let name = "campus_\(model.rawValue.lowercased())"
            try await NIOThreadPool.singleton.runIfActive { try cluster.createDatabase(name) }
            let database = Database(
                pool: PGPool(
                    configuration: PGConfiguration(connectionString: cluster.connectionString(database: name)),
                    size: 2, logger: logger))
            _ = try await MigrationRunner(directory: VandPaths.migrations(), logger: logger).migrate(pool: database.pool)
            results.append(try await day.run(model, on: database, requests: requests))
            await database.close()
        }
        print(CampusTable.render(requests: requests, results: results, options: options))
        let problems = results.flatMap { result in result.problems.map { "\(result.model.title): \($0)" } }
        if problems.isEmpty {
            print("routes checked: ok")
            return true
        }
        print("routes checked: \(problems.count) problems")
        for problem in problems.prefix(20) { print("  \(problem)") }
        return false
    }
}
