import Crypto
import Foundation
import VanDomain
import VanServices

/// The driver's run as the templates show it (`driver.mustache`, `driver-run.mustache`): the
/// next stop large with its actions, the later stops, the done ones, the last tap with its undo,
/// and a refusal next to the action it refused. Pure: the run, the clock's reading and the words in,
/// template values out.
struct WebDriverView {
    let words: WebTimeWords
    let now: Date
    /// The no-show wait (`VAND_NO_SHOW_WAIT`), for the sentence that explains the countdown.
    let noShowWait: TimeInterval

    /// A refused tap, shown next to the action of its stop (or atop the run for another stop).
    struct Refusal {
        /// The stop whose action was refused (nil: none in particular, shown atop the run).
        let rideID: UUID?
        let stop: StopKind?
        let sentence: String
    }

    /// A tap just undone, for the sentence that says so.
    struct Undone {
        let rideID: UUID
        let stop: StopKind
        let action: TapAction
    }

    /// Later stops listed after the next one (the rest are counted).
    static let laterShown = 12
    /// Done stops listed, the last in route order (the rest are counted).
    static let doneShown = 10

    /// Values for `driver-run.mustache`; `keys` makes each form's tap key (a fresh uuid each render).
    func run(
        _ run: DriverRun, csrf: String, refusal: Refusal? = nil, undone: Undone? = nil,
        keys: () -> UUID = UUID.init
    ) -> [String: Any] {
        // A no-show ends the ride: its drop-off is no stop of the run any more.
        let noShows = Set(run.stops.filter { $0.stop == .pickup && $0.outcome == .noShow }.map(\.rideID))
        let stops = run.stops.filter { !($0.stop == .dropoff && noShows.contains($0.rideID)) }
        let remaining = stops.filter { !$0.isDone }
        let done = stops.filter(\.isDone)
        var values: [String: Any] = ["csrf": csrf]
        var state: [String] = []
        if let next = remaining.first {
            var stop = stopValues(next)
            // Nobody aboard and the pickup planned later than the van could be there: wait here, not there with riders.
            if let leave = run.leaveAt { stop["leaveAt"] = words.time(leave) }
            // What the ride policy offers (RunStop.nextActions), a waiting no-show shown by its time.
            let actions = next.nextActions.filter { $0 != .noShow || next.noShowRefusal == nil }
            stop["actions"] = actions.map { action -> [String: Any] in
                [
                    "csrf": csrf, "key": keys().uuidString.lowercased(), "ride": next.rideID.uuidString.lowercased(), "stop": next.stop.rawValue,
                    "action": action.rawValue, "label": Self.label(action), "context": context(action, next),
                ]
            }
            switch next.noShowRefusal {
            case .noShowTooEarly(let from)?:
                // "…for Ann R." ends with the initial's full stop: never "Ann R..", shown and read out.
                stop["noShowAt"] = [
                    "iso": Self.iso(Self.wholeSecond(from)), "time": words.time(Self.wholeMinute(from)),
                    "done": "No-show is now possible for \(BidiIsolation.isolated(next.riderName))" + (next.riderName.hasSuffix(".") ? "" : "."),
                    "explain":
                        "The van waits \(Self.duration(noShowWait)) from the start of the pickup window, its arrival, or the time the rider was last told the van would come, whichever is latest.",
                ]
            case .arrivedAfterWindow?:
                stop["refusal"] =
                    "The van arrived after the pickup window, so \(BidiIsolation.isolated(next.riderName)) cannot be marked a no-show. Call the dispatcher."
            default:
                break
            }
            if let refusal, refusal.rideID == next.rideID, refusal.stop == next.stop {
                stop["refusal"] = refusal.sentence
            }
            values["next"] = stop
            state.append(
                "next \(next.rideID) \(next.stop.rawValue) \(actions.map(\.rawValue)) \(next.arrivedAt.map(Self.iso) ?? "-") \(next.noShowAllowedFrom.map(Self.iso) ?? "-")"
            )
        }
        if let refusal, !(remaining.first.map { $0.rideID == refusal.rideID && $0.stop == refusal.stop } ?? false) {
            values["topRefusal"] = refusal.sentence
        }
        // What a driver can read at a glance: the next few stops, and the last few done ones (the
        // rest are counted; a van's day of a thousand stops must not make a megabyte page).
        let upcoming = remaining.dropFirst()
        let later = upcoming.prefix(Self.laterShown).map { stop -> [String: Any] in
            var extras: [String] = []
            if stop.wheelchair { extras.append("Wheelchair") }
            if stop.companions > 0 { extras.append(stop.companions == 1 ? "1 companion" : "\(stop.companions) companions") }
            if let note = stop.note, !note.isEmpty { extras.append("Note: \(note)") }
            return [
                "planned": words.time(stop.plannedAt), "kindWords": Self.kindWords(stop.stop), "rider": stop.riderName,
                "place": stop.displayPlace, "extras": extras.isEmpty ? [] : [extras.joined(separator: " · ")],
            ]
        }
        values["later"] = later
        values["hasLater"] = !later.isEmpty
        values["laterCount"] = String(upcoming.count)
        values["laterHidden"] =
            upcoming.count > later.count
            ? "\(upcoming.count - later.count) more later today, shown here as the run goes on." as Any : false
        let recent = done.suffix(Self.doneShown)
        let doneValues = recent.map { stop -> [String: Any] in
            [
                "at": (stop.departedAt ?? stop.arrivedAt).map(words.time) ?? "", "outcome": Self.outcomeWords(stop), "rider": stop.riderName,
                "place": stop.displayPlace,
            ]
        }
        values["done"] = doneValues
        values["hasDone"] = !doneValues.isEmpty
        values["doneCount"] = String(done.count)
        values["doneSummary"] = done.count > doneValues.count ? "Show the last \(doneValues.count) done stops" : "Show the done stops"
        state.append("later \(upcoming.count) done \(done.count)")
        state += remaining.prefix(Self.laterShown + 1).map { "\($0.rideID) \($0.stop.rawValue) \(Self.iso($0.plannedAt))" }
        state += recent.map { "done \($0.rideID) \($0.stop.rawValue)" }
        // The last tap of the shift that may still be undone, with what it did.
        let undoable = stops.compactMap { stop in stop.lastTap.map { (stop, $0) } }
            .filter { $0.1.shiftID == run.shift.id && $0.1.undoable(at: now) }
            .max { $0.1.at < $1.1.at }
        if let undone, let stop = stops.first(where: { $0.rideID == undone.rideID && $0.stop == undone.stop }) {
            values["result"] = [
                "text":
                    "Undone: \(undone.action.phrase) for \(BidiIsolation.isolated(stop.riderName)) at \(BidiIsolation.isolated(stop.displayPlace))."
            ]
            state.append("undone \(undone.rideID) \(undone.action.rawValue)")
        } else if let (stop, tap) = undoable {
            values["result"] = [
                "text": resultSentence(tap.action, stop, at: tap.at),
                "undo": [
                    "csrf": csrf, "tapKey": tap.tapKey.uuidString.lowercased(), "untilISO": Self.iso(tap.undoUntil),
                    "untilTime": words.time(tap.undoUntil),
                    "what": "\(tap.action.phrase): \(BidiIsolation.isolated(stop.riderName)) at \(BidiIsolation.isolated(stop.displayPlace))",
                ],
            ]
            state.append("tap \(tap.tapKey)")
        }
        if let refusal { state.append("refused \(refusal.sentence)") }
        values["version"] = Self.version(state)
        return values
    }

    /// Values for the next stop's large card.
    private func stopValues(_ stop: RunStop) -> [String: Any] {
        var values: [String: Any] = [
            "kindWords": Self.kindWords(stop.stop), "rider": stop.riderName, "place": stop.displayPlace,
            "planned": words.time(stop.plannedAt), "wheelchair": stop.wheelchair,
            "companions": stop.companions == 0 ? "None" : String(stop.companions),
        ]
        switch stop.promise.kind {
        case .pickup:
            values["windowLabel"] = "Pick-up window"
            values["window"] =
                stop.promise.window.duration > 0
                ? "\(words.time(stop.promise.window.start)) to \(words.time(stop.promise.window.end))"
                : "at \(words.time(stop.promise.window.start))"
        case .arriveBy:
            values["windowLabel"] = "Must arrive"
            values["window"] =
                stop.promise.window.duration > 0
                ? "between \(words.time(stop.promise.window.start)) and \(words.time(stop.promise.window.end))"
                : "by \(words.time(stop.promise.window.end))"
        }
        values["note"] = stop.note.flatMap { $0.isEmpty ? nil : $0 }
        values["arrived"] = stop.arrivedAt.map(words.time)
        if let phone = stop.riderPhone {
            values["phone"] = phone.rawValue
            values["tel"] = WebPages.tel(phone.rawValue)
        }
        return values
    }

    /// What a button's name adds to its label for a screen reader: the rider and the place.
    private func context(_ action: TapAction, _ stop: RunStop) -> String {
        switch action {
        case .arrived:
            " at \(BidiIsolation.isolated(stop.displayPlace)) to \(stop.stop == .pickup ? "pick up" : "drop off") \(BidiIsolation.isolated(stop.riderName))"
        case .boarded, .noShow, .droppedOff: ": \(BidiIsolation.isolated(stop.riderName)) at \(BidiIsolation.isolated(stop.displayPlace))"
        }
    }

    /// The sentence a tap's result is read as.
    func resultSentence(_ action: TapAction, _ stop: RunStop, at: Date) -> String {
        let time = words.time(at)
        return switch action {
        case .arrived:
            "Arrived at \(BidiIsolation.isolated(stop.displayPlace)) to \(stop.stop == .pickup ? "pick up" : "drop off") \(BidiIsolation.isolated(stop.riderName)), \(time)."
        case .boarded: "\(BidiIsolation.isolated(stop.riderName)) is on board at \(BidiIsolation.isolated(stop.displayPlace)), \(time)."
        case .noShow: "\(BidiIsolation.isolated(stop.riderName)) is marked a no-show at \(BidiIsolation.isolated(stop.displayPlace)), \(time)."
        case .droppedOff: "\(BidiIsolation.isolated(stop.riderName)) is dropped off at \(BidiIsolation.isolated(stop.displayPlace)), \(time)."
        }
    }

    /// The sentence for a refused tap: the road's typed refusal in the driver's words.
    func refusalSentence(_ error: RoadError) -> String {
        switch error {
        case .noShowTooEarly(let from):
            "No-show is possible from \(words.time(Self.wholeMinute(from))), after the \(Self.minutes(noShowWait)) wait."
        case .arrivedAfterWindow:
            "The van arrived after the pickup window, so the rider cannot be marked a no-show. Call the dispatcher."
        case .undoWindowPassed(let closedAt):
            "A tap can be undone until \(words.time(closedAt)) only. Tell the dispatcher."
        case .notOnRun:
            "This ride is no longer on your van's run today. The run below is up to date."
        default:
            Self.sentence(error.description)
        }
    }

    /// Capitalised, with a full stop: road errors are lower-case clauses.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let body = first.uppercased() + text.dropFirst()
        return body.hasSuffix(".") ? body : body + "."
    }

    static func label(_ action: TapAction) -> String {
        switch action {
        case .arrived: "Arrived"
        case .boarded: "On board"
        case .noShow: "No-show"
        case .droppedOff: "Dropped off"
        }
    }

    static func kindWords(_ kind: StopKind) -> String { kind == .pickup ? "Pick up" : "Drop off" }

    static func outcomeWords(_ stop: RunStop) -> String {
        switch stop.outcome {
        case .boarded: "On board"
        case .noShow: "No-show"
        case .droppedOff: "Dropped off"
        case .arrived, nil: stop.rideStatus == .cancelled ? "Cancelled" : "Ended"
        }
    }

    /// "5 minutes", "1 minute" or "30 seconds".
    static func duration(_ seconds: TimeInterval) -> String {
        if seconds >= 60 && seconds.truncatingRemainder(dividingBy: 60) == 0 {
            let minutes = Int(seconds / 60)
            return minutes == 1 ? "1 minute" : "\(minutes) minutes"
        }
        return Int(seconds) == 1 ? "1 second" : "\(Int(seconds)) seconds"
    }

    /// "5-minute" or "30-second".
    static func minutes(_ seconds: TimeInterval) -> String {
        seconds >= 60 && seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60))-minute" : "\(Int(seconds))-second"
    }

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    /// `date` rounded up to the second (ISO 8601 here has whole seconds: a countdown never ends early).
    static func wholeSecond(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up)) }

    /// `date` rounded up to the minute: "possible at 10:43" for 10:42:30 is never too early.
    static func wholeMinute(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.up) * 60) }

    /// A short digest of what the run shows, so the page's script redraws only on a change.
    static func version(_ state: [String]) -> String {
        SHA256.hash(data: Data(state.joined(separator: "\n").utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
