import Foundation
import VanDomain

/// The campus day's results as a Markdown table, one column per model.
enum CampusTable {
    static func render(requests: [CampusRequest], results: [CampusDay.Result], options: CampusBenchOptions) -> String {
        let ahead = requests.filter { $0.booking == .dayBefore }.count, sameDay = requests.filter { $0.booking == .sameDay }.count
        let onDemand = requests.filter { $0.booking == .onDemand }.count
        var lines = [
            "campus day: \(options.commandLine)",
            "\(requests.count) requests (\(ahead) the day before, \(sameDay) the same day, \(onDemand) on demand; "
                + "\(requests.filter { $0.promise == .arriveBy }.count) arrive-by, \(requests.filter(\.wheelchair).count) wheelchair, "
                + "\(requests.filter { $0.companions > 0 }.count) with companions), \(options.vans) vans",
            "",
            "| | " + results.map(\.model.title).joined(separator: " | ") + " |",
            "|---|" + results.map { _ in "--:|" }.joined(),
        ]
        func row(_ title: String, _ value: (CampusDay.Result) -> String) {
            lines.append("| \(title) | " + results.map(value).joined(separator: " | ") + " |")
        }
        row("rides asked") { "\($0.tally.asked)" }
        row("served") { "\($0.tally.served)" }
        row("served at the asked time") { "\($0.tally.servedAsAsked)" }
        row("suggestions taken (±1 h)") { "\($0.tally.suggestionsTaken)" }
        row("refused (lost)") { "\($0.tally.refused)" }
        row("driving minutes") { String(format: "%.0f", $0.routes.drivingMinutes) }
        row("driving minutes per ride") { $0.tally.served == 0 ? "–" : String(format: "%.1f", $0.routes.drivingMinutes / Double($0.tally.served)) }
        row("mean ride minutes (direct)") { result in
            let rides = result.routes.rides
            guard !rides.isEmpty else { return "–" }
            let ride = rides.reduce(0) { $0 + $1.dropoffAt.timeIntervalSince($1.pickupAt) } / Double(rides.count) / 60
            let direct = rides.reduce(0) { $0 + result.routes.direct($1) } / Double(rides.count) / 60
            return String(format: "%.1f (%.1f)", ride, direct)
        }
        func ratio(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "–" }
        row("mean ride time ÷ direct") { ratio($0.routes.meanRideRatio()) }
        row("… riders who asked for a pickup time") { result in ratio(result.routes.meanRideRatio { !result.tally.arriveBy.contains($0.id) }) }
        row("… riders who asked to arrive by a time") { result in ratio(result.routes.meanRideRatio { result.tally.arriveBy.contains($0.id) }) }
        row("minutes a rider waits aboard, mean") {
            $0.routes.rides.isEmpty ? "–" : String(format: "%.1f", $0.routes.waitingAboardMinutes / Double($0.routes.rides.count))
        }
        row("vans used") { "\($0.routes.vansUsed)" }
        row("booking seconds (all requests)") { String(format: "%.1f", $0.tally.seconds) }
        if let shared = results.first(where: { $0.model == .shared }), let one = results.first(where: { $0.model == .oneRider }), one.tally.served > 0
        {
            lines.append("")
            lines.append(String(format: "rides served, shared ÷ one rider: %.2f", Double(shared.tally.served) / Double(one.tally.served)))
        }
        return lines.joined(separator: "\n")
    }
}
