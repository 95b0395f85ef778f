import Foundation
import VanDomain
import VanServices

/// The report's negotiation and denial tables (docs/denials.md): by day, by hour, the hours where
/// standing rides crowd out others, and every denial; and the same lines as CSV.
enum DenialTables {
    /// Prints the tables after the office's numbers.
    static func print(_ tally: DenialTally, clock: ServiceTime) {
        let header = ["REQUESTS", "NEGOTIATED", "MOVED MEAN", "MOVED MAX", "DENIALS", "SHARE", "STANDING"]
        say("")
        printTable(["DAY"] + header, tally.days.map { [$0.day.description] + cells($0) })
        if !tally.hours.isEmpty {
            say("")
            printTable(["DAY", "HOUR"] + header, tally.hours.map { [$0.day.description, hour($0)] + cells($0) })
        }
        for line in tally.standingWarnings {
            let were = line.denials == 1 ? "request was" : "requests were"
            say(
                """
                warning: on \(line.day) at \(hour(line)), standing rides fill \(percent(line.standingShare)) of the hour's rides while \
                \(line.denials) \(were) denied; 49 CFR 37.133(c) allows them at most half when others are denied.
                """)
        }
        guard !tally.denials.isEmpty else { return }
        say("")
        printTable(
            ["DENIED", "RIDER", "TRIP", "REASON", "ASKED", "RIDE"],
            tally.denials.map {
                [clock.text($0.firstAsked, .shortDayAndTime), $0.netID, $0.trip, $0.reason, "\($0.attempts)×", $0.ref ?? "-"]
            })
    }

    /// The lines as CSV: the period, each day (hour empty) and each hour.
    static func csv(_ tally: DenialTally) -> String {
        let header = [
            "day", "hour", "requests", "negotiated", "negotiated_minutes_mean", "negotiated_minutes_max", "denials", "denial_share",
            "rides", "standing_rides", "standing_share", "standing_over_half",
        ]
        let lines = tally.days + tally.hours
        return
            ([CSV.record(header)]
            + lines.map { line in
                CSV.record([
                    line.day.description, line.hour.map(String.init) ?? "", "\(line.requests)", "\(line.negotiated)",
                    line.negotiatedMinutesMean.map { String(format: "%.1f", $0) } ?? "", line.negotiatedMinutesMax.map(String.init) ?? "",
                    "\(line.denials)", String(format: "%.3f", line.denialShare), "\(line.rides)", "\(line.standingRides)",
                    String(format: "%.3f", line.standingShare), line.standingOverHalf ? "true" : "false",
                ])
            }).joined()
    }

    private static func cells(_ line: DenialTally.Line) -> [String] {
        [
            "\(line.requests)", "\(line.negotiated)", line.negotiatedMinutesMean.map { String(format: "%.0f min", $0) } ?? "-",
            line.negotiatedMinutesMax.map { "\($0) min" } ?? "-", "\(line.denials)", percent(line.denialShare), percent(line.standingShare),
        ]
    }

    private static func hour(_ line: DenialTally.Line) -> String { String(format: "%02d:00", line.hour ?? 0) }

    private static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }
}
