import Foundation
import VanDomain
import VanServices

/// The day board and the ride's page as template values: times in the service zone as people
/// read them ("3:05 PM"), lateness in words, every text escaped by the templates.
/// One formatter for the whole board (a formatter per stop would cost more than the board's query).
struct WebDispatchBoardView {
    let timeZone: TimeZone
    let now: Date

    private let clock: DateFormatter

    init(timeZone: TimeZone, now: Date) {
        self.timeZone = timeZone
        self.now = now
        clock = ServiceTime.formatter(.clockTime, timeZone)
    }

    /// "3:05 PM".
    func time(_ date: Date) -> String { clock.string(from: date) }

    /// The board's fragment (`dispatch-board-part`): one table per van.
    func board(_ board: DayBoard) -> [String: Any] {
        let vans = board.vans.map { van -> [String: Any] in
            var values: [String: Any] = [
                "id": String(van.id), "name": van.name, "rides": count(van.rideCount, "ride"),
                "capacity": "\(count(van.seats, "seat")), \(count(van.wheelchairPositions, "wheelchair position"))",
                "position": position(van.positionAt),
                "onRoad": van.onRoad,
                "hasStops": !van.stops.isEmpty,
            ]
            // Mustache reads an empty string as true: absent keys for what is not there.
            if let driver = van.driver { values["driver"] = van.driverName.map { "\($0) (\(driver))" } ?? driver }
            var anchored = Set<UUID>()
            values["stops"] = van.stops.map { stop -> [String: Any] in
                let ride = stop.ride
                // One anchor a ride, on its first stop (the pickup).
                let anchor = anchored.insert(ride.id).inserted
                var row: [String: Any] = [
                    "planned": time(stop.plannedAt),
                    "actual": actual(stop),
                    "kind": stop.kind == .pickup ? "Pickup" : "Drop-off",
                    "place": stop.kind == .pickup ? ride.pickup.displayName : ride.dropoff.displayName,
                    "rider": stop.riderName ?? ride.netID.rawValue,
                    "ref": ride.ref.rawValue,
                    "refSpelled": ride.ref.spelled,
                    "pending": ride.status == .pending,
                    "window": stop.window.map { "\(time($0.start))–\(time($0.end))" } ?? "",
                    "aboard": aboard(stop),
                    "late": lateness(stop),
                    "isLate": (stop.secondsLate ?? 0) >= 60,
                ]
                if anchor { row["anchor"] = "ride-\(ride.ref.rawValue)" }
                return row
            }
            return values
        }
        return ["vans": vans, "hasVans": !vans.isEmpty, "day": board.day.description, "rideCount": count(board.rideCount, "ride")]
    }

    /// "Boarded 3:04 PM", "No-show 3:10 PM", "Arrived 3:02 PM", or "" before the van gets there.
    func actual(_ stop: DayBoard.Stop) -> String {
        switch (stop.outcome, stop.doneAt, stop.arrivedAt) {
        case (.boarded?, let done?, _): return "Boarded \(time(done))"
        case (.noShow?, let done?, _): return "No-show \(time(done))"
        case (.droppedOff?, let done?, _): return "Dropped off \(time(done))"
        case (_, _, let arrived?): return "Arrived \(time(arrived))"
        default: return ""
        }
    }

    /// "3 seats, 1 wheelchair" aboard after the stop.
    func aboard(_ stop: DayBoard.Stop) -> String {
        stop.wheelchairsAboard == 0 ? count(stop.seatsAboard, "seat")
            : "\(count(stop.seatsAboard, "seat")), \(count(stop.wheelchairsAboard, "wheelchair"))"
    }

    /// "On time", "12 min late", "ETA 3:05 PM, on time", "ETA 3:20 PM, 8 min late", or "" when unknown.
    func lateness(_ stop: DayBoard.Stop) -> String {
        let fromETA = stop.arrivedAt == nil && stop.doneAt == nil && stop.eta != nil
        let prefix = fromETA ? "ETA \(time(stop.eta!)), " : ""
        guard let late = stop.secondsLate else { return fromETA ? "ETA \(time(stop.eta!))" : "" }
        let minutes = Int((late / 60).rounded(.down))
        return prefix + (minutes < 1 ? (fromETA ? "on time" : "On time") : "\(minutes) min late")
    }

    /// "position 2 min old", "no position".
    func position(_ at: Date?) -> String {
        guard let at else { return "no position" }
        let seconds = max(0, Int(now.timeIntervalSince(at)))
        if seconds < 60 { return "position \(seconds) s old" }
        if seconds < 3_600 { return "position \(seconds / 60) min old" }
        if seconds < 86_400 { return "position \(seconds / 3_600) h old" }
        return "position \(seconds / 86_400) d old"
    }

    func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    /// `a` with `b`'s values over it.
    static func merge(_ a: [String: Any], _ b: [String: Any]) -> [String: Any] {
        a.merging(b) { _, new in new }
    }
}
