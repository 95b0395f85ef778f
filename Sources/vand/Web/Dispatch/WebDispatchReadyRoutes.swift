import Foundation
import Hummingbird
import VanDomain
import VanServices

/// "She's ready (called by phone)" on a ride's page (`POST /dispatch/rides/{ref}/ready`): a rider
/// whose way back is a will-call phones to say she is ready, and the dispatcher books it for her
/// now (``BookingService/ready(_:netID:actor:now:)``, audited with the dispatcher's name). Booked:
/// the way back's page; not booked: the ride's page again with why (no van within the wait, the
/// ride there not over, called off).
extension WebDispatchBoardRoutes {
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let actions = console.dispatch
        let current = try await ride(context)
        _ = try await console.pages.form(request)  // the CSRF check
        let clock = ServiceTime(timeZone: actions.timeZone)
        let problem: String
        do {
            switch try await actions.readyForRider(current, actor: try await actions.actor(session)) {
            case .booked(let back):
                // Her own pages (the API's kept ride list) go now that someone else booked for her.
                console.pages.actions.pages?.changed(current.netID)
                throw WebAnswer.redirect(Self.ridePath(back.ref) + "?done=ready")
            case .already(let back):
                throw WebAnswer.redirect(Self.ridePath(back.ref) + "?done=ready-already")
            case .refused(let outcome):
                problem = RideRoutes.noVanWithinWait(outcome, wait: actions.settings.policy.willCallMaxWait, now: actions.now, clock: clock).detail
            }
        } catch let error as WillCallError {
            problem = error.sentence(clock: clock)
        }
        return try await ridePage(request, context, ref: current.ref, status: .conflict, problem: "Not booked: " + problem)
    }
}

extension WebDispatchRideView {
    /// The ride's will-call way back as its page shows it (false: none): open (with "She's
    /// ready" once the ride there is over), called for (when, by whom, and `back`, the way back
    /// booked then, linked), or called off.
    func willCall(_ call: WillCall?, there: Ride, back: Ride?) -> Any {
        guard let call else { return false }
        var values: [String: Any] = [
            "from": call.pickup.displayName, "open": false, "canCall": false, "readyWords": false, "closed": false,
            "backRef": back?.ref.rawValue ?? false,
        ]
        switch call.state {
        case .open:
            values["open"] = true
            values["canCall"] = !there.status.holdsVan
        case .ready:
            values["readyWords"] = "ready at \(view.time(call.readyAt ?? now))" + (call.readyBy.map { ", said by \($0)" } ?? "")
        case .closed:
            values["closed"] = true
        }
        return values
    }
}
