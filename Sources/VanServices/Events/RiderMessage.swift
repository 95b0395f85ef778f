import Foundation
import VanDomain

/// The sentence a rider reads in their inbox for an event, in the service time zone.
public struct RiderMessage: Sendable {
    /// The service time zone (times are shown in it).
    public let timeZone: TimeZone

    /// Messages in `timeZone`.
    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// "Your van arrives in about 15 minutes at SCL.", "Your ride … is approved.", …
    public func text(for event: RideEvent) -> String {
        let details = event.details
        let from = details.pickupShort ?? "your pickup"
        let to = details.dropoffShort.map { " to \($0)" } ?? ""
        let when = details.pickupAt.map(format) ?? "the requested time"
        let reason = details.reason.map { ": \($0)" } ?? ""
        switch event.knownKind {
        case .reminder:
            var minutes = 15
            if let pickup = details.reminderETA ?? details.pickupAt, let at = details.remindedAt ?? Optional(event.createdAt) {
                minutes = max(1, Int((pickup.timeIntervalSince(at) / 60).rounded()))
            }
            return "Your van arrives in about \(minutes) minute\(minutes == 1 ? "" : "s") at \(from)."
        case .approved:
            return "Your ride from \(from)\(to) on \(when) is approved."
        case .rejected:
            return "Your ride from \(from)\(to) on \(when) was not approved\(reason)."
        case .moved:
            let was = details.previousPickupAt.map { " (was \(format($0)))" } ?? ""
            return "Your ride from \(from)\(to) now picks you up on \(when)\(was)."
        case .cancelledByService:
            return "The service cancelled your ride from \(from)\(to) on \(when)\(reason)."
        case .cancelledByRider:
            return "You cancelled your ride from \(from)\(to) on \(when)."
        case .late:
            // The rider hears the new time at the stop whose promise the van will miss.
            let atDropoff = details.lateStop == "dropoff"
            let place = atDropoff ? (details.dropoffShort ?? "your drop-off") : from
            let eta = details.lateETA.map { "about \(time($0))" } ?? "later than promised"
            let promised = details.lateWindowEnd.map { " (promised by \(time($0)))" } ?? ""
            return atDropoff
                ? "Your van is running late: it now expects to reach \(place) at \(eta)\(promised)."
                : "Your van is running late: it now expects to reach you at \(place) at \(eta)\(promised)."
        case .arrived:
            return "The van is here at \(from)."
        case .created, .updated, .completed, .noShow, .deleted, .boarded, .tapUndone, nil:
            return "Your ride from \(from)\(to) on \(when) changed."
        }
    }

    /// "3:22 PM".
    func time(_ date: Date) -> String {
        ServiceTime(timeZone: timeZone).text(date, .clockTime)
    }

    /// "Mon Nov 30 at 3:00 PM".
    func format(_ date: Date) -> String {
        ServiceTime(timeZone: timeZone).text(date, .dayAtTime)
    }
}
