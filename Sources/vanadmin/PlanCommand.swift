import ArgumentParser
import Foundation
import VanDomain
import VanScheduler
import VanServices

/// `vanadmin plan optimize --date D [--seconds S]`: a deeper search over a day's routes.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Improve the vans' routes.",
        subcommands: [Optimize.self]
    )

    struct Optimize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-order stops, move rides between vans and shift planned times for a day, inside every promise.",
            discussion: """
                Rides under way or about to start are not moved, and no rider's promised window changes (so no
                rider is notified). Prints driving minutes, vans used and rides per van-hour before and after.
                """
        )
        @Option(help: "Local date YYYY-MM-DD (default today).") var date: String?
        @Option(help: "Seconds of search per stretch of service (0.1 to 600).") var seconds: Double = 10
        @OptionGroup var actor: ActorOptions
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            guard (0.1...600).contains(seconds) else { throw CLIError("--seconds must be 0.1 to 600") }
            let clock = try DispatchContext.clock()
            let day = try date.map { try DispatchContext.date($0) } ?? LocalDate(containing: adminClock.now, in: clock.timeZone)
            let who = try actor.resolved()
            try await withDatabase { db in
                let outcome = try await PlanOptimizer(pool: db.pool, timeZone: clock.timeZone)
                    .optimize(day: day, seconds: seconds, now: adminClock.now, clock: adminClock, actor: who)
                guard outcome.written else {
                    throw CLIError("a route of \(day) changed while planning; nothing was written — run it again")
                }
                if json {
                    struct View: Encodable {
                        let day: String, rides_changed: Int
                        let before: PlanMeasures, after: PlanMeasures
                    }
                    return try printJSON(
                        View(day: day.description, rides_changed: outcome.ridesChanged, before: outcome.before, after: outcome.after))
                }
                func row(_ name: String, _ m: PlanMeasures) -> [String] {
                    [name, String(format: "%.1f", m.driving / 60), "\(m.vansUsed)", String(format: "%.2f", m.ridesPerVanHour)]
                }
                say("PLAN \(day): \(outcome.before.rides) rides, \(outcome.ridesChanged) given another van or time\n")
                printTable(["", "DRIVING MIN", "VANS USED", "RIDES PER VAN-HOUR"], [row("before", outcome.before), row("after", outcome.after)])
            }
        }
    }
}
