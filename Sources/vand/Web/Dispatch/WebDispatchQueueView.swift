import Foundation
import VanDomain
import VanServices

/// The queue's and the alerts' template values: times in words, the route around each ride,
/// how long each has waited. Pure: values in, values out.
struct WebDispatchQueueView {
    let words: WebTimeWords
    let now: Date

    /// A reject form's refusal to show by its ride (the reason is required).
    struct RejectError {
        let ref: String
        let reason: String
        let message: String
    }

    /// The queue part: `count`, `countText`, `rides` (each with its route and forms' values),
    /// and `pages` when the rides waiting fill more than one page (`page` counts from 1).
    func queue(
        _ entries: [PendingQueue.Entry], total: Int, page: Int = 1, pageSize: Int = PendingQueue.pageSize,
        csrf: String, error: RejectError? = nil
    ) -> [String: Any] {
        var values: [String: Any] = [
            "csrf": csrf, "count": total, "hasRides": !entries.isEmpty,
            "countText": total == 0
                ? "No rides wait for a decision." : total == 1 ? "1 ride waits for a decision." : "\(total) rides wait for a decision.",
            "rides": entries.map { ride($0, error: error) },
            "partPath": "/dispatch/queue/part" + (page > 1 ? "?page=\(page)" : ""),
            "pages": false,
        ]
        if total > pageSize || page > 1 {
            let from = (page - 1) * pageSize
            let shown =
                entries.isEmpty
                ? "No rides on this page: the queue is shorter now."
                : "Rides \(from + 1)–\(from + entries.count) of \(total) are shown: pickups soon first, then the oldest bookings."
            values["pages"] =
                [
                    "shown": shown,
                    "previous": page > 1
                        ? ["href": "/dispatch" + (page > 2 ? "?page=\(page - 1)" : ""), "size": String(pageSize)] as [String: Any] : false,
                    "next": from + entries.count < total && !entries.isEmpty
                        ? ["href": "/dispatch?page=\(page + 1)", "size": String(min(pageSize, total - from - entries.count))] as [String: Any]
                        : false,
                    "first": entries.isEmpty,
                ] as [String: Any]
        }
        return values
    }

    /// The queue page asked for: `?page=N` (from 1); anything else is the first.
    static func page(_ text: Substring?) -> Int {
        guard let text, let page = Int(text), page >= 1, page <= 100_000 else { return 1 }
        return page
    }

    func ride(_ entry: PendingQueue.Entry, error: RejectError?) -> [String: Any] {
        let listing = entry.listing, ride = listing.ride
        let ref = ride.ref.rawValue
        var values: [String: Any] = [
            "ref": ref, "rider": listing.riderName ?? ride.netID.rawValue, "netID": ride.netID.rawValue,
            "from": ride.pickup.displayName, "to": ride.dropoff.displayName,
            "promise": promise(ride), "pickupAt": words.words(ride.pickupAt, now: now),
            "dropoffAt": words.time(ride.estimatedDropoffAt),
            "needs": needs(ride), "waited": Self.waited(now.timeIntervalSince(ride.requestedAt)),
            "booked": words.words(ride.requestedAt, now: now),
            "van": ride.vanName ?? "no van yet",
            "route": entry.route.map(stop), "hasRoute": !entry.route.isEmpty,
            "soon": entry.soon,
        ]
        if let phone = listing.riderPhone, !phone.isEmpty { values["phone"] = phone; values["phoneTel"] = WebPages.tel(phone) }
        if let note = ride.note, !note.isEmpty { values["note"] = note }
        if let error, error.ref == ref {
            values["reasonError"] = error.message
            values["reason"] = error.reason
        }
        return values
    }

    func stop(_ stop: PendingQueue.RouteStop) -> [String: Any] {
        [
            "time": words.time(stop.at), "action": stop.action == .pickup ? "Pickup" : "Drop-off", "place": stop.place,
            "who": "\(BidiIsolation.isolated(stop.rider)) (\(stop.ref.rawValue))", "own": stop.isThisRide,
        ]
    }

    /// "Pickup 3:00–3:15 PM today" or "Arrive 2:45–3:00 PM today".
    func promise(_ ride: Ride) -> String {
        let window = ride.promise.window
        let span = "\(words.time(window.start))–\(words.time(window.end)) \(words.day(window.start, now: now))"
        return ride.promise.kind == .pickup ? "Pickup \(span)" : "Arrive by \(words.time(window.end)) (\(span))"
    }

    /// "Wheelchair, 2 companions", "1 companion", "Walks on, alone".
    func needs(_ ride: Ride) -> String {
        var parts: [String] = [ride.needsWheelchair ? "Wheelchair" : "Walks on"]
        switch ride.companions {
        case 0: parts.append("alone")
        case 1: parts.append("1 companion")
        default: parts.append("\(ride.companions) companions")
        }
        return parts.joined(separator: ", ")
    }

    /// "under a minute", "12 min", "2 h 5 min", "3 days".
    static func waited(_ seconds: TimeInterval) -> String {
        let minutes = Int(max(0, seconds) / 60)
        if minutes < 1 { return "under a minute" }
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 { return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min" }
        return "\(minutes / 1440) days"
    }

    // MARK: Alerts

    /// The alerts part: each kind's list and a count.
    func alerts(_ snapshot: DispatchAlerts.Snapshot, csrf: String, pendingMinutes: Int) -> [String: Any] {
        let today = LocalDate(containing: now, in: words.timeZone)
        return [
            "csrf": csrf, "count": snapshot.count,
            "countText": snapshot.count == 0 ? "Nothing needs you now." : snapshot.count == 1 ? "1 alert." : "\(snapshot.count) alerts.",
            "pendingMinutes": pendingMinutes,
            "late": snapshot.late.map { late in
                let ride = late.listing.ride
                var values: [String: Any] = [
                    "ref": ride.ref.rawValue, "rider": late.listing.riderName ?? ride.netID.rawValue, "netID": ride.netID.rawValue,
                    "van": ride.vanName ?? "no van",
                    "stop": late.stop == .pickup ? "pickup at \(ride.pickup.displayName)" : "drop-off at \(ride.dropoff.displayName)",
                    "eta": words.time(late.eta), "windowEnd": words.time(late.windowEnd),
                    "minutes": late.lateness.minutes,
                    "board": WebDispatchBoardView.ridePath(
                        day: LocalDate(containing: ride.pickupAt, in: words.timeZone), van: ride.vanID, ref: ride.ref),
                ]
                if let phone = late.listing.riderPhone, !phone.isEmpty { values["phone"] = phone; values["phoneTel"] = WebPages.tel(phone) }
                return values
            },
            "noShows": snapshot.noShows.map { listing in
                let ride = listing.ride
                var values: [String: Any] = [
                    "ref": ride.ref.rawValue, "rider": listing.riderName ?? ride.netID.rawValue, "netID": ride.netID.rawValue,
                    "from": ride.pickup.displayName, "to": ride.dropoff.displayName, "pickupAt": words.time(ride.pickupAt),
                    "van": ride.vanName ?? "no van",
                    "board": WebDispatchBoardView.ridePath(day: today, van: ride.vanID, ref: ride.ref),
                ]
                if let phone = listing.riderPhone, !phone.isEmpty { values["phone"] = phone; values["phoneTel"] = WebPages.tel(phone) }
                return values
            },
            "parked": snapshot.parked.map { item in
                [
                    "event": String(item.eventID), "kind": item.kind, "ref": item.rideRef ?? item.rideID.uuidString.lowercased(),
                    "attempts": item.attempts, "parkedAt": item.parkedAt.map { words.words($0, now: now) } ?? "",
                    "error": item.lastError ?? "no error recorded",
                ] as [String: Any]
            },
            "pending": snapshot.pending.map { listing in
                let ride = listing.ride
                return [
                    "ref": ride.ref.rawValue, "rider": listing.riderName ?? ride.netID.rawValue, "netID": ride.netID.rawValue,
                    "from": ride.pickup.displayName, "to": ride.dropoff.displayName, "pickupAt": words.words(ride.pickupAt, now: now),
                    "waited": Self.waited(now.timeIntervalSince(ride.requestedAt)),
                ] as [String: Any]
            },
            "unstaffed": snapshot.unstaffed.map { listing in
                let ride = listing.ride
                var values: [String: Any] = [
                    "ref": ride.ref.rawValue, "rider": listing.riderName ?? ride.netID.rawValue, "netID": ride.netID.rawValue,
                    "from": ride.pickup.displayName, "pickupAt": words.words(ride.pickupAt, now: now), "van": ride.vanName ?? "no van",
                    "ride": WebDispatchBoardRoutes.ridePath(ride.ref),
                ]
                if let phone = listing.riderPhone, !phone.isEmpty { values["phone"] = phone; values["phoneTel"] = WebPages.tel(phone) }
                return values
            },
            "hasUnstaffed": !snapshot.unstaffed.isEmpty,
            "hasLate": !snapshot.late.isEmpty, "hasNoShows": !snapshot.noShows.isEmpty,
            "hasParked": !snapshot.parked.isEmpty, "hasPending": !snapshot.pending.isEmpty,
        ]
    }
}
