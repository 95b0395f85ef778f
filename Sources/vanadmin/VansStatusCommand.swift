import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin vans status [--json]`: each van on the road now.
struct VansStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Each van now: its driver, how old its position is, its next stop and how late it runs.",
        discussion: """
            The driver is the one on the van's open shift. A position older than VAND_POSITION_STALE
            seconds (default 120) shows as unknown. The next stop is the first of today's run not yet
            done. LATE is against the rider's promise, as the board, the map, the alerts and the
            rider read it: whole minutes after the window's end by the van's arrival, its ETA, or now
            (a van not yet there); "on time" under a whole minute; "-" at a stop with no promise (a
            pickup ride's drop-off). BEHIND PLAN is the arrival, ETA or now against the planner's time.
            """
    )
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let clock = try DispatchContext.clock()
        let now = adminClock.now
        try await withServices { services in
            let vans = try await VanStatusBoard.load(
                pool: services.pool, eta: services.eta, timeZone: clock.timeZone, now: now,
                stale: services.settings.events.positionStale)
            if json { return try printJSON(vans) }
            printTable(
                ["VAN", "DRIVER", "POSITION", "NEXT STOP", "PLANNED", "RIDER", "LATE", "BEHIND PLAN"],
                vans.map { van in
                    let next = van.nextStop
                    return [
                        van.van, van.driver.map { driver in van.driverName.map { "\(driver) (\($0))" } ?? driver } ?? "-",
                        VanStatusWords.age(van),
                        next.map { "\($0.stop == .pickup ? "pick up" : "drop off") \($0.rideRef) at \($0.place)" } ?? "-",
                        next.map { clock.display($0.plannedAt, withDay: false) } ?? "-",
                        next?.rider ?? "-",
                        next.map { $0.minutesLate.map { $0 == 0 ? "on time" : "\($0) min" } ?? "-" } ?? "-",
                        next.map { "\($0.minutesBehindPlan) min" } ?? "-",
                    ]
                })
        }
    }
}

/// How `vans status` words a position's age.
enum VanStatusWords {
    /// `12 s ago`, `3 min ago`; `unknown` when stale or missing.
    static func age(_ van: VanStatus) -> String {
        guard van.positionKnown, let seconds = van.positionAgeSeconds else { return "unknown" }
        return seconds < 120 ? "\(seconds) s ago" : "\(seconds / 60) min ago"
    }
}
