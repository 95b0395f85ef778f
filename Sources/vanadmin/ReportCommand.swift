import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin report --from D --to D [--json | --csv]`: the office's numbers and the service's
/// on-time performance (docs/on-time.md).
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Requests, decisions, cancellations, no-shows, denials, van hours and on-time performance between two dates.",
        discussion: """
            On-time performance is read from the drivers' taps: pickups inside their window (early \
            and late by how much), arrive-by drop-offs on time, ride time against its limit and the \
            direct ride, waits at the stop and no-shows — for the period, by day, by van and by \
            driver. Stops with no tap are "not recorded", never on time. Definitions: docs/on-time.md. \
            --csv writes every stop of the period instead, one row a stop. The no-show policy's figures \
            (no-show and late-cancel rates, notices, appeals and their outcomes, suspensions, riders under \
            notice) are in the table and the JSON (no_show_policy); --policy-csv writes them as CSV. \
            Requests, negotiated times and denials as 49 CFR 37.131(b) counts them (no ride within an \
            hour of the time asked), by day and by hour with the standing rides' share of each hour, \
            are in the tables and the JSON (negotiation); --denials-csv writes them as CSV, one row a \
            day and one an hour. Definitions: docs/denials.md.
            """
    )
    @Option(help: "First local date YYYY-MM-DD.") var from: String
    @Option(help: "Last local date YYYY-MM-DD (inclusive).") var to: String
    @Flag(help: "JSON for scripts.") var json = false
    @Flag(help: "Every stop of the period as CSV (planned and actual times), one row a stop.") var csv = false
    @Flag(help: "The no-show policy's figures as CSV (measure,value).") var policyCsv = false
    @Flag(help: "Requests, negotiated times, denials and the standing share as CSV, a row a day and a row an hour.") var denialsCsv = false

    func validate() throws {
        if [json, csv, policyCsv, denialsCsv].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --json, --csv, --policy-csv and --denials-csv")
        }
    }

    func run() async throws {
        let clock = try DispatchContext.clock()
        let first = try DispatchContext.date(from), last = try DispatchContext.date(to)
        guard first <= last else { throw CLIError("--from must not be after --to") }
        let now = adminClock.now
        try await withDatabase { db in
            let onTime = try await OnTimeReport.load(pool: db.pool, from: first, to: last, timeZone: clock.timeZone, now: now)
            if csv {
                FileHandle.standardOutput.write(Data(OnTimeCSV.text(onTime, clock: clock).utf8))
                return
            }
            let policy = try await PolicyReport.load(pool: db.pool, from: first, to: last, timeZone: clock.timeZone, now: now)
            if policyCsv {
                let lines = [CSV.record(["measure", "value"])] + policy.rows.map(CSV.record)
                FileHandle.standardOutput.write(Data(lines.joined().utf8))
                return
            }
            let report = try await Report.load(pool: db.pool, from: first, to: last, timeZone: clock.timeZone, now: now)
            if denialsCsv {
                FileHandle.standardOutput.write(Data(DenialTables.csv(report.negotiation).utf8))
                return
            }
            if json { return try printJSON(ReportJSON(report: report, onTime: onTime, policy: policy)) }
            say("REPORT \(first) to \(last)\n")
            printTable(
                ["MEASURE", "VALUE"],
                [
                    ["rides booked", "\(report.requests)"], ["approved (upcoming)", "\(report.approved)"], ["rejected", "\(report.rejected)"],
                    ["cancelled", "\(report.cancelled)"], ["cancelled late", "\(report.cancelledLate)"], ["no-shows", "\(report.noShows)"],
                    ["completed", "\(report.completed)"], ["denials (no ride within an hour)", "\(report.denials)"],
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
            DenialTables.print(report.negotiation, clock: clock)
            say("")
            printTable(["NO-SHOW POLICY", "VALUE"], policy.rows)
            OnTimeTables.print(onTime)
        }
    }
}

/// The report's JSON: the office's numbers as before, and `on_time` beside them.
private struct ReportJSON: Encodable {
    let report: Report
    let onTime: OnTimeReport
    let policy: PolicyReport

    enum CodingKeys: String, CodingKey {
        case onTime
        case policy = "no_show_policy"
    }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(onTime, forKey: .onTime)
        try container.encode(policy, forKey: .policy)
    }
}
