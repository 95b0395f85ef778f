import Foundation
import VanDomain
import VanServices

/// The dispatcher's page of one ride as template values: the rider and how to call her, the
/// promise, the status and van, planned and actual times, the move form's vans, and the ride's
/// history (the audit log and the ride's events, oldest first).
struct WebDispatchRideView {
    let view: WebDispatchBoardView
    let now: Date

    func ride(
        _ listing: RideQueries.Listing, history: [RideQueries.HistoryEntry], actuals: DayBoard.RideActuals,
        vans: [String], chosenVan: String
    ) -> [String: Any] {
        let ride = listing.ride
        let zone = view.timeZone
        let day = LocalDate(containing: ride.pickupAt, in: zone)
        let full = ServiceTime(timeZone: zone)
        var values: [String: Any] = [
            "ref": ride.ref.rawValue, "refSpelled": ride.ref.spelled,
            "rider": listing.riderName ?? ride.netID.rawValue, "netID": ride.netID.rawValue,
            "status": Self.status(ride.status),
            "from": ride.pickup.displayName, "to": ride.dropoff.displayName,
            "day": day.description, "dayWords": WebDispatchBoardRoutes.dayWords(day),
            "board": WebDispatchBoardView.ridePath(day: day, van: ride.vanID, ref: ride.ref),
            "promise": (ride.promise.kind == .pickup ? "Pickup between " : "Arrive by, drop-off between ")
                + "\(view.time(ride.promise.window.start)) and \(view.time(ride.promise.window.end))",
            "plannedPickup": view.time(ride.pickupAt), "plannedDropoff": view.time(ride.estimatedDropoffAt),
            "van": ride.vanName ?? "none",
            "needs": Self.needs(ride),
            "movable": ride.status.holdsVan,
        ]
        // Mustache reads an empty string as true: absent keys for what is not there.
        if let phone = listing.riderPhone, !phone.isEmpty {
            values["phone"] = phone
            values["tel"] = WebPages.tel(phone)
        }
        let pickupActual = [
            actuals.pickupArrived.map { "arrived \(view.time($0))" },
            actuals.pickupDone.map { (actuals.pickupOutcome == .noShow ? "no-show " : "boarded ") + view.time($0) },
        ]
        .compactMap { $0 }.joined(separator: ", ")
        if !pickupActual.isEmpty { values["pickupActual"] = pickupActual }
        let dropoffActual = [actuals.dropoffArrived.map { "arrived \(view.time($0))" }, actuals.dropoffDone.map { "dropped off \(view.time($0))" }]
            .compactMap { $0 }.joined(separator: ", ")
        if !dropoffActual.isEmpty { values["dropoffActual"] = dropoffActual }
        values["vans"] = vans.map { ["name": $0, "chosen": $0 == chosenVan, "current": $0 == ride.vanName] }
        values["history"] = history.map { entry -> [String: String] in
            ["at": full.text(entry.at, .shortDayAndTime), "actor": entry.actor, "action": Self.action(entry.action)]
        }
        return values
    }

    /// "Approved", "Waiting for approval", …
    static func status(_ status: RideStatus) -> String {
        switch status {
        case .pending: "Waiting for approval"
        case .approved: "Approved"
        case .rejected: "Rejected"
        case .cancelled: "Cancelled"
        case .completed: "Completed"
        case .noShow: "No-show"
        }
    }

    /// "Wheelchair, 1 companion".
    static func needs(_ ride: Ride) -> String {
        var parts: [String] = []
        if ride.needsWheelchair { parts.append("Wheelchair") }
        if ride.companions > 0 { parts.append(ride.companions == 1 ? "1 companion" : "\(ride.companions) companions") }
        return parts.isEmpty ? "None" : parts.joined(separator: ", ")
    }

    /// `ride.move` → "ride move", `event.moved` → "event: moved".
    static func action(_ action: String) -> String {
        if action.hasPrefix("event.") { return "event: " + action.dropFirst(6).replacingOccurrences(of: "_", with: " ") }
        return action.replacingOccurrences(of: ".", with: " ").replacingOccurrences(of: "_", with: " ")
    }
}
