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
    /// position, rides, stops done, the next stop and its lateness, late stops), and the stops of
    /// van `chosen` in route order when one is chosen. `missingVan` when `chosen` is not on the board.
    func board(_ board: DayBoard, van chosen: Int64?, page: StopPage = .current) -> [String: Any] {
        let day = board.day.description
        let fleet = board.vans.map { van -> [String: Any] in
            let done = van.stops.reduce(0) { $0 + ($1.outcome == nil ? 0 : 1) }
            let late = van.stops.reduce(0) { $0 + (($1.secondsLate ?? 0) >= 60 ? 1 : 0) }
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
            if let next = van.stops.first(where: { $0.outcome == nil }) {
                row["nextStop"] = [
                    "planned": time(next.plannedAt), "kind": next.kind == .pickup ? "pickup" : "drop-off",
                    "place": next.kind == .pickup ? next.ride.pickup.displayName : next.ride.dropoff.displayName,
                    "rider": next.riderName ?? next.ride.netID.rawValue, "ref": next.ride.ref.rawValue,
                ]
                row["late"] = lateness(next)
                row["isLate"] = (next.secondsLate ?? 0) >= 60
            }
            return row
        }
        var values: [String: Any] = ["fleet": fleet, "hasVans": !fleet.isEmpty, "day": day, "rideCount": count(board.rideCount, "ride")]
        if let chosen {
            if let van = board.vans.first(where: { $0.id == chosen }) { values["van"] = route(van, day: board.day, page: page) } else { values["missingVan"] = true }
        }
        if values["van"] == nil { values["van"] = false }
        return values
    }

    /// Which of a van's stops its section shows: ``stopsPerPage`` of them.
    enum StopPage: Equatable {
        /// The page with the van's first stop not done (its place in the day now); the first
        /// page when every stop is done.
        case current
        /// The `n`th page, from 1 (past the last: the last).
        case number(Int)
        /// The page with the ride's first stop on this van (its anchor `ride-REF`).
        case ride(RideRef)
    }

    /// Stops a page of a van's day shows: a whole ordinary day of one van (about 75 stops on a
    /// busy 300-ride day of 8 vans) within the console's 50 kB page budget, and a van's day of
    /// thousands of stops paged rather than sent whole.
    static let stopsPerPage = 100

    /// One van's section: its facts and one page of its stops in route order, each ride's first
    /// stop on the page with the anchor `ride-REF` and the one link to the ride's page (its other
    /// stop names the reference); `pages` links the pages before and after.
    func route(_ van: DayBoard.VanRoute, day: LocalDate, page: StopPage = .current) -> [String: Any] {
        var values: [String: Any] = [
            "id": String(van.id), "name": van.name, "rides": count(van.rideCount, "ride"),
            "capacity": "\(count(van.seats, "seat")), \(count(van.wheelchairPositions, "wheelchair position"))",
            "position": position(van.positionAt),
            "onRoad": van.onRoad,
            "hasStops": !van.stops.isEmpty,
            "driver": driver(van).map { $0 as Any } ?? false,
            "pages": false, "page": "1",
        ]
        let size = Self.stopsPerPage
        let lastPage = max(1, (van.stops.count + size - 1) / size)
        let number: Int = switch page {
        case .number(let n): min(max(1, n), lastPage)
        case .current: (van.stops.firstIndex { $0.outcome == nil }).map { $0 / size + 1 } ?? 1
        case .ride(let ref): (van.stops.firstIndex { $0.ride.ref == ref }).map { $0 / size + 1 }
            ?? (van.stops.firstIndex { $0.outcome == nil }).map { $0 / size + 1 } ?? 1
        }
        let shown = van.stops[min(van.stops.count, (number - 1) * size)..<min(van.stops.count, number * size)]
        values["page"] = String(number)
        if lastPage > 1 {
            let path = Self.boardPath(day: day, van: van.id)
            values["pages"] = [
                "shown": "Stops \(shown.startIndex + 1)–\(shown.endIndex) of \(van.stops.count), page \(number) of \(lastPage).",
                "earlier": number > 1 ? ["href": path + "&page=\(number - 1)#van-\(van.id)"] as [String: Any] : false,
                "later": number < lastPage ? ["href": path + "&page=\(number + 1)#van-\(van.id)"] as [String: Any] : false,
            ] as [String: Any]
        }
        var anchored = Set<UUID>()
        values["stops"] = shown.map { stop -> [String: Any] in
            let ride = stop.ride
            return [
                "planned": time(stop.plannedAt),
                "kind": stop.kind == .pickup ? "Pickup" : "Drop-off",
                "place": stop.kind == .pickup ? ride.pickup.displayName : ride.dropoff.displayName,
                "rider": stop.riderName ?? ride.netID.rawValue,
                "ref": ride.ref.rawValue,
                "pending": ride.status == .pending,
                "aboard": aboard(stop),
                "isLate": (stop.secondsLate ?? 0) >= 60,
                "actual": actual(stop), "late": lateness(stop),
                "window": stop.window.map { "\(time($0.start))–\(time($0.end))" } ?? "",
                // One anchor and one link a ride, on its first stop on the page.
                "anchor": anchored.insert(ride.id).inserted ? "ride-\(ride.ref.rawValue)" as Any : false,
            ]
        }
        return values
    }

    /// The page of a van's stops a request asks for: `page=N`, or `ride=REF` (the page with that
    /// ride), or the van's current page.
    static func stopPage(page: Substring?, ride: Substring?) -> StopPage {
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
