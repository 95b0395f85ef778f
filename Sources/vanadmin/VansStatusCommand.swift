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
            done; minutes late are its planned time against its arrival, or against now if the van
            has not arrived.
            """
    )
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let clock = try DispatchContext.clock()
        let stale: TimeInterval
        do throws(SettingError) { stale = try SettingSpec.positionStale.number(ProcessInfo.processInfo.environment) } catch { throw CLIError(error.description) }
        let now = adminClock.now
        try await withDatabase { db in
            let vans = try await VanStatusBoard.load(pool: db.pool, timeZone: clock.timeZone, now: now, stale: stale)
            if json { return try printJSON(vans) }
            printTable(["VAN", "DRIVER", "POSITION", "NEXT STOP", "PLANNED", "RIDER", "LATE"], vans.map { van in
                let next = van.nextStop
                return [
                    van.van, van.driver.map { driver in van.driverName.map { "\(driver) (\($0))" } ?? driver } ?? "-",
                    VanStatusWords.age(van),
                    next.map { "\($0.stop == .pickup ? "pick up" : "drop off") \($0.rideRef) at \($0.place)" } ?? "-",
                    next.map { clock.display($0.plannedAt, withDay: false) } ?? "-",
                    next?.rider ?? "-",
                    next.map { $0.minutesLate.map { "\($0) min" } ?? "?" } ?? "-",
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
