import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin manifest --van V --date D`: the driver's run sheet.
struct ManifestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "A van's run sheet for a day, in pickup order, ready to print."
    )
    @Option(help: "Van name.") var van: String
    @Option(help: "Local date YYYY-MM-DD (default today).") var date: String?
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let clock = try DispatchContext.clock()
        let day = try date.map { text in try DispatchContext.date(text) } ?? LocalDate(containing: adminClock.now, in: clock.timeZone)
        try await withDatabase { db in
            let manifest = try await Manifest.load(pool: db.pool, van: van, day: day, timeZone: clock.timeZone)
            if json { return try printJSON(ManifestJSON(manifest, clock: clock)) }
            say("RUN SHEET — \(manifest.van) — \(day) (\(clock.timeZone.identifier))")
            say("\(manifest.rideCount) rides, \(manifest.stops.count) stops; \(manifest.seats) seats, \(manifest.wheelchairPositions) wheelchair positions; * = pending approval\n")
            for (index, stop) in manifest.stops.enumerated() {
                let r = stop.ride
                let end = stop.action == .pickup ? r.pickup : r.dropoff
                var place = end.displayName
                if let address = end.address, address != end.displayName { place += " (\(address))" }
                if let c = end.coordinate { place += String(format: " [%.5f, %.5f]", c.latitude, c.longitude) }
                let rider = [stop.riderName ?? r.netID.rawValue, stop.riderPhone].compactMap { $0 }.joined(separator: ", ")
                let verb = stop.action == .pickup ? "PICK UP " : "DROP OFF"
                say("\(index + 1). \(clock.display(stop.at, withDay: false))  \(verb)  \(r.ref.rawValue)  \(rider)\(r.status == .pending ? " *" : "")")
                say("   at:       \(place)")
                if let drive = stop.driveMinutes { say("   drive from last stop: ~\(drive) min") }
                var needs: [String] = []
                if r.needsWheelchair { needs.append("WHEELCHAIR") }
                if r.companions > 0 { needs.append("\(r.companions) companion\(r.companions == 1 ? "" : "s")") }
                if !needs.isEmpty { say("   needs:    \(needs.joined(separator: ", "))") }
                if stop.action == .pickup, let note = r.note { say("   note:     \(note)") }
                if stop.action == .pickup {
                    let promise = r.promise.kind == .pickup ? "pickup between" : "arrive between"
                    say("   promised: \(promise) \(clock.display(r.promise.window.start, withDay: false)) and \(clock.display(r.promise.window.end, withDay: false))")
                }
                say("   aboard after: \(stop.seatsAboard) of \(manifest.seats) seats, \(stop.wheelchairsAboard) of \(manifest.wheelchairPositions) wheelchairs")
                say("")
            }
        }
    }
}

/// `vanadmin report --from D --to D`: the office's numbers.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "report", abstract: "Requests, decisions, cancellations, no-shows, denials and van hours between two dates.")
    @Option(help: "First local date YYYY-MM-DD.") var from: String
    @Option(help: "Last local date YYYY-MM-DD (inclusive).") var to: String
    @Flag(help: "JSON for scripts.") var json = false

    func run() async throws {
        let clock = try DispatchContext.clock()
        let first = try DispatchContext.date(from), last = try DispatchContext.date(to)
        guard first <= last else { throw CLIError("--from must not be after --to") }
        try await withDatabase { db in
            let report = try await Report.load(pool: db.pool, from: first, to: last, timeZone: clock.timeZone)
            if json { return try printJSON(report) }
            say("REPORT \(first) to \(last)\n")
            printTable(["MEASURE", "VALUE"], [
                ["requests", "\(report.requests)"], ["approved (upcoming)", "\(report.approved)"], ["rejected", "\(report.rejected)"],
                ["cancelled", "\(report.cancelled)"], ["cancelled late", "\(report.cancelledLate)"], ["no-shows", "\(report.noShows)"],
                ["completed", "\(report.completed)"], ["denials (refused bookings)", "\(report.denials)"],
                ["median minutes to decision", report.medianDecisionMinutes.map { String(format: "%.1f", $0) } ?? "-"],
                ["wheelchair share", String(format: "%.0f%%", report.wheelchairShare * 100)],
            ])
            if !report.vanHours.isEmpty {
                say("")
                printTable(["VAN", "HOURS BOOKED"], report.vanHours.sorted { $0.key < $1.key }.map { [$0.key, String(format: "%.2f", $0.value)] })
            }
            if !report.repeatedNoShows.isEmpty {
                say("")
                printTable(["RIDER", "NO-SHOWS"], report.repeatedNoShows.sorted { $0.value > $1.value }.map { [$0.key, "\($0.value)"] })
            }
        }
    }
}
