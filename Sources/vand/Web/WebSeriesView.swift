import Foundation
import VanDomain
import VanScheduler
import VanServices

/// A series and a series change in words, for the series page and the check page.
struct WebSeriesView {
    let clock: ServiceTime
    let now: Date
    var today: LocalDate { LocalDate(containing: now, in: clock.timeZone) }

    init(timeZone: TimeZone, now: Date) {
        clock = ServiceTime(timeZone: timeZone)
        self.now = now
    }

    /// "Wednesday, December 2".
    func day(_ date: LocalDate) -> String {
        clock.text(date.interval(in: clock.timeZone).start.addingTimeInterval(12 * 3_600), .weekdayAndDate)
    }

    /// "3:00 PM".
    func time(_ time: LocalTime) -> String {
        let hour = time.hour % 12 == 0 ? 12 : time.hour % 12
        return "\(hour):\(time.minute < 10 ? "0" : "")\(time.minute) \(time.hour < 12 ? "AM" : "PM")"
    }

    /// The series page's values: pattern, upcoming dates, holds, closed days.
    func series(_ detail: SeriesDetail) -> [String: Any] {
        let s = detail.series, t = s.template
        let names = ["Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays"]
        let days = s.weekdays.sorted().map { names[$0 - 1] }
        let pattern = days.count > 1 ? days.dropLast().joined(separator: ", ") + " and " + days.last! : days.joined()
        let upcoming = detail.rides.filter { $0.pickupAt >= now }
        return [
            "seriesID": s.id.uuidString.lowercased(),
            "pattern": "\(pattern), \(t.promise == .arriveBy ? "arriving by" : "picked up at") \(time(t.time))",
            "from": t.pickup.displayName, "to": t.dropoff.displayName, "until": day(s.until),
            "rides": upcoming.map { ride in
                [
                    "id": ride.id.uuidString.lowercased(), "ref": ride.ref.rawValue,
                    "when": clock.text(ride.promise.asked, .dayAtTime), "status": WebRideRoutes.statusText(ride.status),
                    "reason": ride.reason ?? "", "live": ride.status.holdsVan,
                ] as [String: Any]
            },
            "hasRides": !upcoming.isEmpty,
            "holds": detail.holds.map { hold in
                [
                    "id": String(hold.id), "from": day(hold.from), "to": day(hold.to), "open": hold.isOpen(today: today),
                    "state": hold.resumedAt != nil ? "resumed early" : (hold.isOpen(today: today) ? "on hold" : "over"),
                ] as [String: Any]
            },
            "hasHolds": !detail.holds.isEmpty,
            "closed": detail.closedDays.keys.sorted().map { date in ["day": day(date), "reason": detail.closedDays[date].flatMap { $0 } ?? ""] },
            "hasClosed": !detail.closedDays.isEmpty,
            "canChange": detail.rides.contains { $0.status.holdsVan && $0.pickupAt > now },
        ]
    }

    /// The dates she may pick in the edit form: each upcoming ride that holds a van.
    func dateOptions(_ detail: SeriesDetail, chosen: String?) -> [[String: Any]] {
        var seen = Set<LocalDate>()
        var options: [[String: Any]] = []
        for ride in detail.rides where ride.status.holdsVan && ride.pickupAt > now {
            let date = LocalDate(containing: ride.promise.asked, in: clock.timeZone)
            guard seen.insert(date).inserted else { continue }
            options.append(["value": date.description, "label": day(date), "selected": chosen == date.description])
        }
        return options
    }

    /// The check page's values: each date and, for a conflict, its choices.
    func check(_ answer: SeriesChangeAnswer, canKeep: Bool, missing: Bool) -> [String: Any] {
        let dates: [[String: Any]] = answer.dates.map { date in
            let key = date.date.description
            var values: [String: Any] = ["date": key, "day": day(date.date), "was": date.was.map { clock.text($0.promise.asked, .clockTime) } ?? ""]
            switch date.result {
            case .fits(let ride):
                values["result"] = "Fits: \(clock.text(ride.promise.asked, .clockTime))"
                values["fits"] = true
            case .conflict(let outcome):
                values["conflict"] = true
                values["result"] = "Does not fit"
                values["detail"] = outcome.sentence(clock: clock) ?? ""
                var options: [[String: Any]] = []
                if case .refused(let feasibility, _) = outcome {
                    for (index, suggestion) in feasibility.suggestions.enumerated() {
                        options.append([
                            "id": "choice-\(key)-\(index)", "value": clock.text(suggestion.asked, .formTime),
                            "label": "Take \(clock.text(suggestion.asked, .clockTime)) instead",
                        ])
                    }
                }
                if canKeep { options.append(["id": "choice-\(key)-keep", "value": "keep", "label": "Keep this date as it was"]) }
                options.append(["id": "choice-\(key)-skip", "value": "skip", "label": "No ride this date"])
                values["options"] = options
                values["firstOption"] = options.first?["id"] ?? ""
                if missing { values["error"] = "Choose what to do on \(day(date.date)): this date does not fit as asked" }
            case .skipped: values["result"] = "No ride this date, as you chose"
            case .kept: values["result"] = "Stays as it was, as you chose"
            case .closed(let reason): values["result"] = "The service is closed that day\(reason.map { " (\($0))" } ?? ""): no ride"
            }
            return values
        }
        let conflicts = answer.conflicts
        return [
            "dates": dates, "hasConflicts": !conflicts.isEmpty,
            "conflictCount": conflicts.count == 1 ? "1 date does" : "\(conflicts.count) dates do",
            "errorList": missing
                ? dates.filter { $0["conflict"] as? Bool == true }.map { ["target": $0["firstOption"] ?? "", "message": $0["error"] ?? ""] } : [],
            "hasErrors": missing && !conflicts.isEmpty,
        ]
    }
}
