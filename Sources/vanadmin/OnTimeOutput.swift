import Foundation
import VanDomain
import VanServices

/// How `vanadmin report` prints on-time performance: the period's figures, then one row per
/// day, van and driver.
enum OnTimeTables {
    /// Prints the section.
    static func print(_ report: OnTimeReport) {
        let all = report.overall
        say("\nON-TIME PERFORMANCE (from drivers' taps; docs/on-time.md)\n")
        printTable(
            ["MEASURE", "VALUE"],
            [
                ["pickups inside their window", share(all.pickupOnTimeShare, all.pickupsOnTime, all.pickupsRecorded)],
                ["early pickups (min before the window)", spread(all.pickupsEarly)],
                ["late pickups (min after the window)", spread(all.pickupsLate)],
                ["pickups not recorded", "\(all.pickupsNotRecorded)"],
                ["arrive-by drop-offs on time", share(all.arriveByOnTimeShare, all.arriveByOnTime, all.arriveByRecorded)],
                ["late arrive-by drop-offs (min after)", spread(all.arriveByLate)],
                ["arrive-by drop-offs not recorded", "\(all.arriveByNotRecorded)"],
                ["ride time within its limit", share(all.rideTimeWithinLimitShare, all.rideTimesWithinLimit, all.rideTimesRecorded)],
                ["rides over their limit (min over)", spread(all.rideTimesOverLimit)],
                ["ride time / direct ride", ratio(all.rideTimeOverDirect)],
                ["wait at the stop (min, arrived to on board)", spread(all.waits)],
                ["no-shows (tapped)", "\(all.noShows)"],
                ["stops not recorded (all)", "\(all.stopsNotRecorded)"],
                ["stops still upcoming", "\(all.stopsUpcoming)"],
            ])
        for (title, groups) in [("DAY", report.byDay), ("VAN", report.byVan), ("DRIVER", report.byDriver)] where !groups.isEmpty {
            say("")
            printTable(
                [
                    title, "PICKUPS ON TIME", "EARLY", "LATE", "NOT RECORDED", "ARRIVE-BY ON TIME", "RIDE WITHIN LIMIT", "RIDE/DIRECT", "WAIT",
                    "NO-SHOWS",
                ],
                groups.map { group in
                    let f = group.figures
                    return [
                        group.key, share(f.pickupOnTimeShare, f.pickupsOnTime, f.pickupsRecorded), spread(f.pickupsEarly), spread(f.pickupsLate),
                        "\(f.stopsNotRecorded)", share(f.arriveByOnTimeShare, f.arriveByOnTime, f.arriveByRecorded),
                        share(f.rideTimeWithinLimitShare, f.rideTimesWithinLimit, f.rideTimesRecorded), ratio(f.rideTimeOverDirect),
                        spread(f.waits), "\(f.noShows)",
                    ]
                })
        }
    }

    /// `75% (3 of 4)`, or `- (0 recorded)`.
    static func share(_ share: Double?, _ part: Int, _ whole: Int) -> String {
        guard let share else { return "- (0 recorded)" }
        return String(format: "%.0f%% (%d of %d)", share * 100, part, whole)
    }

    /// `1: mean 6.0, p95 6.0`, or `0`.
    static func spread(_ spread: OnTimeFigures.Spread) -> String {
        guard let mean = spread.mean, let p95 = spread.p95 else { return "0" }
        return String(format: "%d: mean %.1f, p95 %.1f", spread.count, mean, p95)
    }

    /// `mean 1.40, p95 1.80`, or `-`.
    static func ratio(_ spread: OnTimeFigures.Spread) -> String {
        guard let mean = spread.mean, let p95 = spread.p95 else { return "-" }
        return String(format: "mean %.2f, p95 %.2f", mean, p95)
    }
}

/// `vanadmin report --csv`: every stop of the period, one row a stop, for a spreadsheet.
enum OnTimeCSV {
    /// The header row's columns.
    static let header = [
        "ride_ref", "day", "van", "driver", "stop", "place", "promise", "window_start", "window_end",
        "planned", "arrived", "departed", "outcome", "on_time", "minutes_late",
    ]

    /// The whole file: the header, then a row per stop. Times carry the service zone's offset;
    /// `minutes_late` is after the window's end (negative: minutes early for a pickup), empty
    /// where the stop carries no promise or was not recorded.
    static func text(_ report: OnTimeReport, clock: ServiceTime) -> String {
        var text = CSV.record(header)
        for row in report.stops {
            let stop = row.stop
            let outcome = stop.outcome?.rawValue ?? (stop.arrivedAt != nil ? "arrived" : row.verdict.word)
            text += CSV.record([
                CSV.text(row.rideRef), row.day.description, CSV.text(row.van ?? ""), CSV.text(row.driver ?? ""), stop.kind.rawValue,
                CSV.text(row.place), stop.promise.kind.rawValue, clock.format(stop.promise.window.start), clock.format(stop.promise.window.end),
                clock.format(stop.planned), stop.arrivedAt.map(clock.format) ?? "", stop.departedAt.map(clock.format) ?? "",
                outcome, row.verdict.word, row.verdict.minutesLate.map { String(format: "%.1f", $0) } ?? "",
            ])
        }
        return text
    }
}
