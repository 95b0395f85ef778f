import Foundation
import VanDomain
import VanPostgres
import VanServices

/// How `vanadmin watch` prints what happened on the road: a van's arrival at a stop, a rider on
/// board, a no-show, a drop-off, an undone tap and a `late` alert, one line each —
/// `#61 14:45:02 arrived ride K7M-3QX ann1 at pickup SCL, 3 min after planned Van 1 (driver dee)`.
///
/// The kinds are read as the strings `ride_events` holds (the taps' from sql/0029, `late` from
/// sql/0030), so a build that does not know them as ``RideEventKind`` cases still prints them.
/// The tap's details are the payload's `road` object (`stop`, `action`, `at`, `driver`), the
/// alert's its `late` object (`stop`, `eta`, `window_end`, `late_minutes`); what is missing is
/// left out. Every part is escaped by the caller.
enum RoadWatchLine {
    /// The kinds printed here; the rest print as other ride events do.
    static let kinds: Set<String> = ["arrived", "boarded", "no_show", "dropped_off", "completed", "tap_undone", "late"]

    /// The parts after `#id time kind ride REF rider`, or nil for a kind not of the road.
    static func parts(_ event: RideEvent, zone: TimeZone) -> [String]? {
        guard kinds.contains(event.kind) else { return nil }
        let objects = RoadDetails(payload: event.payload)
        let details = event.details
        let clock = ServiceTime(timeZone: zone)
        // The stop: as the tap or alert says, else the one the kind implies.
        let stop = objects.road?.stop ?? objects.late?.stop ?? (event.kind == "dropped_off" || event.kind == "completed" ? "dropoff" : "pickup")
        let place = (stop == "dropoff" ? details.dropoffShort : details.pickupShort) ?? "?"
        var parts = ["at \(stop == "dropoff" ? "drop-off" : "pickup") \(place)"]
        switch event.kind {
        case "tap_undone":
            if let action = objects.road?.action { parts.append("(undid \(phrase(action)))") }
        case "late":
            if let eta = objects.late?.eta.flatMap(PGTimestamp.parse) { parts.append("ETA \(clock.display(eta, withDay: false))") }
            if let minutes = objects.late?.lateMinutes { parts.append("\(minutes) min after the window") }
            if let end = objects.late?.windowEnd.flatMap(PGTimestamp.parse) { parts.append("(ends \(clock.display(end, withDay: false)))") }
        default:
            if let at = objects.road?.at.flatMap(PGTimestamp.parse) { parts.append(clock.display(at, withDay: false)) }
        }
        if let van = details.van { parts.append(van) }
        if let driver = objects.road?.driver { parts.append("(driver \(driver))") }
        return parts
    }

    /// "on board" for `boarded`, as the driver's page words it.
    static func phrase(_ action: String) -> String {
        switch action {
        case "boarded": "on board"
        case "no_show": "no-show"
        case "dropped_off": "dropped off"
        default: action
        }
    }

    /// The road's objects of an event payload; each field optional.
    struct RoadDetails: Decodable {
        struct Tap: Decodable {
            let stop: String?
            let action: String?
            let at: String?
            let driver: String?
        }
        struct Late: Decodable {
            let stop: String?
            let eta: String?
            let windowEnd: String?
            let lateMinutes: Int?
            enum CodingKeys: String, CodingKey { case stop, eta, windowEnd = "window_end", lateMinutes = "late_minutes" }
        }
        var road: Tap?
        var late: Late?

        init(payload: String) {
            guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(payload.utf8)) else { return }
            self = decoded
        }
    }
}
