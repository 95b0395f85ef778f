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
            if json { return try printJSON(manifest) }
            print("RUN SHEET — \(manifest.van) — \(day) (\(clock.timeZone.identifier))")
            print("\(manifest.stops.count) rides; * = pending approval\n")
            for (index, stop) in manifest.stops.enumerated() {
                let r = stop.ride
                func place(_ e: RideEndpoint) -> String {
                    var text = e.displayName
                    if let address = e.address, address != e.displayName { text += " (\(address))" }
                    if let c = e.coordinate { text += String(format: " [%.5f, %.5f]", c.latitude, c.longitude) }
                    return text
                }
                let rider = [stop.riderName ?? r.netID.rawValue, stop.riderPhone].compactMap { $0 }.joined(separator: ", ")
                print("\(index + 1). \(clock.display(r.pickupAt, withDay: false))\(r.status == .pending ? " *" : "")  \(r.ref.rawValue)  \(rider)")
                if let deadhead = stop.deadheadMinutes { print("   drive from last drop-off: ~\(deadhead) min") }
                print("   pick up:  \(place(r.pickup))")
                print("   drop off: \(place(r.dropoff))  (~\(clock.display(r.estimatedDropoffAt, withDay: false)))")
                var needs: [String] = []
                if r.needsWheelchair { needs.append("WHEELCHAIR") }
                if r.companions > 0 { needs.append("\(r.companions) companion\(r.companions == 1 ? "" : "s")") }
                if !needs.isEmpty { print("   needs:    \(needs.joined(separator: ", "))") }
                if let note = r.note { print("   note:     \(note)") }
                print("")
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
            print("REPORT \(first) to \(last)\n")
            printTable(["MEASURE", "VALUE"], [
                ["requests", "\(report.requests)"], ["approved (upcoming)", "\(report.approved)"], ["rejected", "\(report.rejected)"],
                ["cancelled", "\(report.cancelled)"], ["cancelled late", "\(report.cancelledLate)"], ["no-shows", "\(report.noShows)"],
                ["completed", "\(report.completed)"], ["denials (refused bookings)", "\(report.denials)"],
                ["median minutes to decision", report.medianDecisionMinutes.map { String(format: "%.1f", $0) } ?? "-"],
                ["wheelchair share", String(format: "%.0f%%", report.wheelchairShare * 100)],
            ])
            if !report.vanHours.isEmpty {
                print("")
                printTable(["VAN", "HOURS BOOKED"], report.vanHours.sorted { $0.key < $1.key }.map { [$0.key, String(format: "%.2f", $0.value)] })
            }
            if !report.repeatedNoShows.isEmpty {
                print("")
                printTable(["RIDER", "NO-SHOWS"], report.repeatedNoShows.sorted { $0.value > $1.value }.map { [$0.key, "\($0.value)"] })
            }
        }
    }
}
