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

    /// The board's fragment (`dispatch-board-part`): the fleet's summary (one row a van: driver,
    /// position, rides, stops done, the next stop and its lateness, late stops), and the shown
    /// page of van `chosen`'s stops in route order when one is chosen (``DayBoard/load(pool:day:timeZone:now:eta:van:page:)``
    /// read that van's page in full). `missingVan` when `chosen` is not on the board.
    func board(_ board: DayBoard, van chosen: Int64?) -> [String: Any] {
        let day = board.day.description
        let fleet = board.vans.map { van -> [String: Any] in
            let done = van.stops.reduce(0) { $0 + ($1.outcome == nil ? 0 : 1) }
            let late = van.stops.reduce(0) { $0 + ($1.lateness?.isLate == true ? 1 : 0) }
            var row: [String: Any] = [
                "id": String(van.id), "name": van.name, "href": Self.boardPath(day: board.day, van: van.id) + "#van-\(van.id)",
                "driver": driver(van) ?? "No driver on shift",
                "position": position(van.positionAt) + (van.onRoad ? "; on the road" : ""),
                "rides": String(van.rideCount), "done": "\(done) of \(van.stops.count)",
                "lateCount": late == 0 ? "None" : String(late),
                "current": van.id == chosen, "late": "", "isLate": false, "nextStop": false,
            ]
            // Sections get false, never an absent key: Mustache would look the key up in the page's
            // own values ("next" is the next day there).
            if let next = van.next, let shown = board.shown[next.rideID] {
                row["nextStop"] = [
                    "planned": time(next.plannedAt), "kind": next.kind == .pickup ? "pickup" : "drop-off",
                    "place": next.kind == .pickup ? shown.ride.pickup.displayName : shown.ride.dropoff.displayName,
                    "rider": shown.riderName ?? shown.ride.netID.rawValue, "ref": next.ref.rawValue,
                ]
                row["late"] = lateness(next)
                row["isLate"] = next.lateness?.isLate == true
            }
            return row
        }
        var values: [String: Any] = ["fleet": fleet, "hasVans": !fleet.isEmpty, "day": day, "rideCount": count(board.rideCount, "ride")]
        if let chosen {
            if let van = board.vans.first(where: { $0.id == chosen }) {
                values["van"] = route(van, board: board)
            } else {
                values["missingVan"] = true
            }
        }
        if values["van"] == nil { values["van"] = false }
        return values
    }

    /// The board's denials section: the day's requests and denials (with their share), one row
    /// a denial, and the hours where standing rides fill more than half while others are denied.
    func denials(_ tally: DenialTally) -> [String: Any] {
        let total = tally.total
        let rows = tally.denials.map { denial -> [String: Any] in
            [
                "asked": time(denial.firstAsked), "rider": denial.netID, "trip": denial.trip, "reason": denial.reasonWords,
                "attempts": denial.attempts == 1 ? "once" : "\(denial.attempts) times", "ref": denial.ref ?? false,
            ]
        }
        let warnings = tally.standingWarnings.map { line -> String in
            let hour = line.hour ?? 0
            return "From \((hour + 11) % 12 + 1):00 \(hour < 12 ? "AM" : "PM"), standing rides "
                + "fill \(Int((line.standingShare * 100).rounded())) % of the hour's rides while \(count(line.denials, "request")) "
                + "\(line.denials == 1 ? "was" : "were") denied: at most half may be standing rides when others are denied (49 CFR 37.133(c))."
        }
        let summary =
            total.requests == 0
            ? "No requests for this day yet."
            : "\(count(total.requests, "request")), \(total.negotiated) moved to another time, "
                + "\(count(total.denials, "denial")) (\(Int((total.denialShare * 100).rounded())) %)."
        return ["denialSummary": summary, "denials": rows, "hasDenials": !rows.isEmpty, "standingWarnings": warnings]
    }

    /// One van's section: its facts and its shown page of stops in route order, each ride's first
    /// stop on the page with the anchor `ride-REF` and the one link to the ride's page (its other
    /// stop names the reference); `pages` links the pages before and after.
    func route(_ van: DayBoard.VanRoute, board: DayBoard) -> [String: Any] {
        var values: [String: Any] = [
            "id": String(van.id), "name": van.name, "rides": count(van.rideCount, "ride"),
            "capacity": "\(count(van.seats, "seat")), \(count(van.wheelchairPositions, "wheelchair position"))",
            "position": position(van.positionAt),
            "onRoad": van.onRoad,
            "hasStops": !van.stops.isEmpty,
            "driver": driver(van).map { $0 as Any } ?? false,
            "pages": false, "page": String(van.page.number),
        ]
        let (number, pages) = van.page
        if pages > 1 {
            let path = Self.boardPath(day: board.day, van: van.id)
            values["pages"] =
                [
                    "shown": "Stops \(van.shown.lowerBound + 1)–\(van.shown.upperBound) of \(van.stops.count), page \(number) of \(pages).",
                    "earlier": number > 1 ? ["href": path + "&page=\(number - 1)#van-\(van.id)"] as [String: Any] : false,
                    "later": number < pages ? ["href": path + "&page=\(number + 1)#van-\(van.id)"] as [String: Any] : false,
                ] as [String: Any]
        }
        var anchored = Set<UUID>()
        values["stops"] = van.stops[van.shown].map { stop -> [String: Any] in
            let shown = board.shown[stop.rideID]
            return [
                "planned": time(stop.plannedAt),
                "kind": stop.kind == .pickup ? "Pickup" : "Drop-off",
                "place": shown.map { stop.kind == .pickup ? $0.ride.pickup.displayName : $0.ride.dropoff.displayName } ?? "",
                "rider": shown.map { $0.riderName ?? $0.ride.netID.rawValue } ?? "",
                "ref": stop.ref.rawValue,
                "pending": stop.status == .pending,
                "aboard": aboard(stop),
                "isLate": stop.lateness?.isLate == true,
                "actual": actual(stop), "late": lateness(stop),
                "window": stop.window.map { "\(time($0.start))–\(time($0.end))" } ?? "",
                // One anchor and one link a ride, on its first stop on the page.
                "anchor": anchored.insert(stop.rideID).inserted ? "ride-\(stop.ref.rawValue)" as Any : false,
            ]
        }
        return values
    }

    /// The page of a van's stops a request asks for: `page=N`, or `ride=REF` (the page with that
    /// ride), or the van's current page.
    static func stopPage(page: Substring?, ride: Substring?) -> DayBoard.StopPage {
        if let page, let n = Int(page.prefix(9)), n >= 1 { return .number(n) }
        if let ride, let ref = try? RideRef(validating: String(ride.prefix(20))) { return .ride(ref) }
        return .current
    }

    /// "Dana Driver (dana1)", or nil with no driver on shift.
    func driver(_ van: DayBoard.VanRoute) -> String? {
        van.driver.map { driver in van.driverName.map { "\($0) (\(driver))" } ?? driver }
    }

    /// The board's address for `day`, showing `van`'s stops when given: `/dispatch/board?day=…&van=…`.
    static func boardPath(day: LocalDate, van: Int64?) -> String {
        "/dispatch/board?day=\(day)" + (van.map { "&van=\($0)" } ?? "")
    }

    /// Where a ride's row is on the board: its day, its van's page of stops with it, its anchor.
    static func ridePath(day: LocalDate, van: Int64?, ref: RideRef) -> String {
        boardPath(day: day, van: van) + (van == nil ? "" : "&ride=\(ref.rawValue)") + "#ride-\(ref.rawValue)"
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
        stop.wheelchairsAboard == 0
            ? count(stop.seatsAboard, "seat")
            : "\(count(stop.seatsAboard, "seat")), \(count(stop.wheelchairsAboard, "wheelchair"))"
    }

    /// "On time", "12 min late", "ETA 3:05 PM, on time", "ETA 3:20 PM, 8 min late", or "" when unknown.
    func lateness(_ stop: DayBoard.Stop) -> String {
        let fromETA = stop.arrivedAt == nil && stop.doneAt == nil && stop.eta != nil
        let prefix = fromETA ? "ETA \(time(stop.eta!)), " : ""
        guard let late = stop.lateness else { return fromETA ? "ETA \(time(stop.eta!))" : "" }
        return prefix + (fromETA && !late.isLate ? "on time" : late.words)
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
