import Foundation
import VanDomain
import VanServices

/// The day board's "Will-calls open": a row a rider waiting to call for her way back, with
/// where she waits, her ride there and how long since it dropped her off.
extension WebDispatchBoardView {
    /// The section's values for the board of `day`: `willCalls` (oldest ride there first) and
    /// `hasWillCalls`.
    func willCalls(_ open: [WebDispatchActions.OpenWillCall], day: LocalDate) -> [String: Any] {
        let full = ServiceTime(timeZone: timeZone)
        let rows = open.map { item -> [String: Any] in
            let there = item.there
            let sameDay = LocalDate(containing: there.pickupAt, in: timeZone) == day
            return [
                "rider": item.riderName.map { "\($0) (\(there.netID.rawValue))" } ?? there.netID.rawValue,
                "waitsAt": item.call.pickup.displayName,
                "ref": there.ref.rawValue,
                "thereStatus": WebDispatchRideView.status(there.status),
                "thereAt": sameDay ? time(there.pickupAt) : full.text(there.pickupAt, .shortDayAndTime),
                "age": willCallAge(there),
            ]
        }
        return ["willCalls": rows, "hasWillCalls": !rows.isEmpty]
    }

    /// How long since the ride there's estimated drop-off ("25 minutes"), or, while it is still
    /// to come, "ride there at 9:00 AM".
    func willCallAge(_ there: Ride) -> String {
        let since = now.timeIntervalSince(there.estimatedDropoffAt)
        if since < 0, there.status.holdsVan { return "ride there at \(time(there.pickupAt))" }
        let minutes = max(0, Int(since / 60))
        switch minutes {
        case 0: return "under a minute"
        case ..<120: return count(minutes, "minute")
        default: return "\(count(minutes / 60, "hour")) \(count(minutes % 60, "minute"))"
        }
    }
}
