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

    /// " *" for a pending ride, " (done)" and " (no-show)" for the day's ended ones.
    static func mark(_ status: RideStatus) -> String {
        switch status {
        case .pending: " *"
        case .completed: " (done)"
        case .noShow: " (no-show)"
        default: ""
        }
    }

    func run() async throws {
        let clock = try DispatchContext.clock()
        let day = try date.map { text in try DispatchContext.date(text) } ?? LocalDate(containing: adminClock.now, in: clock.timeZone)
        try await withDatabase { db in
            let manifest = try await Manifest.load(pool: db.pool, van: van, day: day, timeZone: clock.timeZone)
            if json { return try printJSON(ManifestJSON(manifest, clock: clock)) }
            say("RUN SHEET — \(manifest.van) — \(day) (\(clock.timeZone.identifier))")
            say(
                "\(manifest.rideCount) rides, \(manifest.stops.count) stops; \(manifest.seats) seats, \(manifest.wheelchairPositions) wheelchair positions; * = pending approval, (done) and (no-show) as the driver tapped\n"
            )
            for (index, stop) in manifest.stops.enumerated() {
                let r = stop.ride
                let end = stop.action == .pickup ? r.pickup : r.dropoff
                var place = end.displayName
                if let address = end.address, address != end.displayName { place += " (\(address))" }
                if let c = end.coordinate { place += String(format: " [%.5f, %.5f]", c.latitude, c.longitude) }
                let rider = [stop.riderName ?? r.netID.rawValue, stop.riderPhone].compactMap { $0 }.joined(separator: ", ")
                let verb = stop.action == .pickup ? "PICK UP " : "DROP OFF"
                say("\(index + 1). \(clock.display(stop.at, withDay: false))  \(verb)  \(r.ref.rawValue)  \(rider)\(Self.mark(r.status))")
                say("   at:       \(place)")
                if let drive = stop.driveMinutes { say("   drive from last stop: ~\(drive) min") }
                var needs: [String] = []
                if r.needsWheelchair { needs.append("WHEELCHAIR") }
                if r.companions > 0 { needs.append("\(r.companions) companion\(r.companions == 1 ? "" : "s")") }
                if !needs.isEmpty { say("   needs:    \(needs.joined(separator: ", "))") }
                if stop.action == .pickup, let note = r.note { say("   note:     \(note)") }
                if stop.action == .pickup {
                    let promise = r.promise.kind == .pickup ? "pickup between" : "arrive between"
                    say(
                        "   promised: \(promise) \(clock.display(r.promise.window.start, withDay: false)) and \(clock.display(r.promise.window.end, withDay: false))"
                    )
                }
                say(
                    "   aboard after: \(stop.seatsAboard) of \(manifest.seats) seats, \(stop.wheelchairsAboard) of \(manifest.wheelchairPositions) wheelchairs"
                )
                say("")
            }
        }
    }
}
