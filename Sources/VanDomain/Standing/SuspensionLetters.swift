import Foundation

/// The written words of a suspension case: the notice, the receipt of her appeal and the
/// decision, as they reach her inbox, the notification stream and the dispatcher's webhook.
public struct SuspensionLetters: Sendable {
    /// Times and dates in the service zone.
    public let clock: ServiceTime
    /// The office's number (`VAND_HOTLINE`); nil: "the office".
    public let hotline: String?

    /// Letters in `timeZone`, naming `hotline`.
    public init(timeZone: TimeZone, hotline: String?) {
        clock = ServiceTime(timeZone: timeZone)
        self.hotline = hotline
    }

    private var call: String { hotline.map { "call the office at \($0)" } ?? "call the office" }

    /// "Mon Nov 30 at 9:00 AM (K7M-3QX, no-show)".
    public func trip(_ trip: Suspension.Trip) -> String {
        let how = trip.missed == .noShow ? "no-show" : "late cancellation"
        return "\(clock.text(trip.pickupAt, .dayAtTime)) (\(trip.ref), \(how))"
    }

    /// The written notice: the trips, the period, its start and how to appeal.
    public func notice(_ s: Suspension) -> String {
        let trips = s.trips.map(trip).joined(separator: "; ")
        return "Notice of a proposed suspension under the no-show policy. These \(s.trips.count) missed trips count: \(trips). "
            + "We propose to suspend your rides for \(s.periodDays) days, \(s.periodWords(clock)); "
            + "rides you have booked in that period will be cancelled when it starts. "
            + "You may appeal until \(Suspension.day(s.appealBy, clock)): on the Your record page of the app, or \(call). "
            + "An appeal puts the suspension on hold until the office decides."
    }

    /// The receipt of her appeal.
    public func appealReceived(_ s: Suspension) -> String {
        "We received your appeal of the proposed suspension (notice \(s.id)). "
            + "The suspension is on hold until the office decides, and you may book rides as usual."
    }

    /// The written decision, with its reasons.
    public func decision(_ s: Suspension) -> String {
        guard let decision = s.decision else { return "" }
        if decision.upheld {
            return "Decision on your appeal (notice \(s.id)): the suspension is upheld. Reasons: \(decision.reason). "
                + "Your rides are suspended \(s.periodWords(clock)); rides you have booked in that period will be cancelled "
                + "when it starts. For a ride you need for medical reasons, \(call)."
        }
        return "Decision on your appeal (notice \(s.id)): the suspension is overturned. Reasons: \(decision.reason). "
            + "You may book rides as usual."
    }

    /// The reason given on each ride the suspension's start cancels.
    public func cancellationReason(_ s: Suspension) -> String {
        "suspended under the no-show policy \(s.periodWords(clock)), as notice \(s.id) said"
    }
}
