import Foundation
import VanDomain

/// The sentence a rider reads in their inbox for an event, in the service time zone.
public struct RiderMessage: Sendable {
    /// The service time zone (times are shown in it).
    public let timeZone: TimeZone
    /// The office's phone number (`VAND_HOTLINE`), for messages that ask the rider to call; nil: "call the office".
    public let hotline: String?

    /// Messages in `timeZone`, naming `hotline` where the rider should call.
    public init(timeZone: TimeZone, hotline: String? = nil) {
        self.timeZone = timeZone
        self.hotline = hotline
    }

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
            // A series held or edited says so (`held: Dec 20 to Jan 5`, `changed: …`).
            return "You cancelled your ride from \(from)\(to) on \(when)\(reason)."
        case .created:
            // The rider hears of a booking only when a series change made it (SeriesService).
            return "Your ride from \(from)\(to) on \(when) is booked."
        case .arrived:
            return "The van is here at \(from)."
        case .late:
            // The rider hears the new time at the stop whose promise the van will miss.
            let atDropoff = details.lateStop == "dropoff"
            let place = atDropoff ? (details.dropoffShort ?? "your drop-off") : from
            let eta = details.lateETA.map { "about \(time($0))" } ?? "later than promised"
            let promised = details.lateWindowEnd.map { " (promised by \(time($0)))" } ?? ""
            return atDropoff
                ? "Your van is running late: it now expects to reach \(place) at \(eta)\(promised)."
                : "Your van is running late: it now expects to reach you at \(place) at \(eta)\(promised)."
        case .noShow:
            // The driver's no-show tap ends the wait; the rider hears what happened and what to do.
            let until = details.roadAt.map { " until \(time($0))" } ?? ""
            let call = hotline.map { "call the office at \($0)" } ?? "call the office"
            return "The van waited for you at \(from)\(until) and had to go on, so your ride\(to) is marked a no-show. "
                + "If this is wrong, \(call)."
        case .tapUndone where details.roadAction == "no_show":
            // The driver's undo or the dispatcher's correction: the no-show she was told of is taken back.
            return "Correction: your ride from \(from)\(to) on \(when) is not a no-show. The mark was taken back, and your ride stands."
        case .tapUndone where details.roadAction == "arrived" && details.roadStop == "pickup":
            return "Correction: the van is not at \(from) yet. You will be told when it arrives."
        case .reassigned:
            // Her reminder went out and she looks for the van by its name (sql/0037).
            let van = details.van.map { " is now on \($0)" } ?? " is now on another van"
            return "Your ride from \(from)\(to) on \(when)\(van)."
        case .suspensionNotice, .appealFiled, .suspensionDecided:
            // The letter is written once, when the case changes (SuspensionLetters).
            return details.standingMessage ?? "Your standing under the no-show policy changed; see Your record."
        case .updated, .completed, .deleted, .boarded, .tapUndone, nil:
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
