import Foundation
import Hummingbird
import VanDomain
import VanServices

/// A will-call way back on her ride's page ("Way back: you'll call when you're ready"), and
/// "I'm ready" (`POST /rides/{id}/ready`): the way back booked now and its page shown, or her
/// ride's page again with why not (no van within the wait, the ride there not over, called off).
extension WebRideRoutes {
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let id = try rideID(context)
        _ = try await pages.form(request)  // the CSRF check
        let problem: String
        do {
            switch try await actions.ready(id, for: session.netID) {
            case .booked(let back):
                throw WebAnswer.redirect(Self.path(of: back) + "?done=ready")
            case .already(let back):
                throw WebAnswer.redirect(Self.path(of: back) + "?done=ready-already")
            case .refused(let outcome):
                let clock = ServiceTime(timeZone: actions.timeZone)
                problem = RideRoutes.noVanWithinWait(outcome, wait: actions.settings.policy.willCallMaxWait, now: actions.now, clock: clock).detail
            }
        } catch let error as WillCallError {
            if error == .notFound { throw notFound() }
            problem = error.sentence(clock: ServiceTime(timeZone: actions.timeZone))
        }
        // Nothing was booked: her ride's page again, saying why (her call stays as it was).
        let ride = try await ride(request, context)
        var page = try await ridePage(ride, title: "Not booked yet: your way back", status: .conflict)
        page.values["problem"] = problem
        return try await pages.render(page, request: request, context: context)
    }

    /// The will-call way back of `ride`, if it has one, as `willCall` for the template: open (with
    /// "I'm ready" once the ride there is over), booked (the way back linked), or called off. It
    /// stands for the way back, so the trip's own "Your way back" line is not shown beside it.
    func willCall(_ ride: Ride, into values: inout [String: Any]) async throws {
        guard let call = try await actions.willCall(of: ride.id, for: ride.netID) else { return }
        values["wayBack"] = nil
        // Sections get false, never an absent key: Mustache would look it up in the page's own values.
        var shown: [String: Any] = ["from": call.pickup.displayName, "open": false, "canCall": false, "back": false, "closed": false]
        switch call.state {
        case .open:
            shown["open"] = true
            // Until the driver drops her off, the ride there holds her (and the service would refuse).
            shown["canCall"] = !ride.status.holdsVan
            shown["maxWait"] = String(Int(actions.settings.policy.willCallMaxWait / 60))
        case .ready:
            if let back = try await actions.wayBack(of: ride.id, for: ride.netID) {
                shown["back"] = [
                    "href": Self.path(of: back), "ref": back.ref.rawValue, "refSpelled": back.ref.spelled,
                    "when": pages.words.words(back.pickupAt, now: actions.now),
                    // Said only when it no longer holds a van (cancelled, missed, done).
                    "status": back.status.holdsVan ? false as Any : Self.statusText(back.status),
                ]
            }
        case .closed:
            shown["closed"] = true
        }
        values["willCall"] = shown
    }

    /// What her way back's page says once "I'm ready" booked it.
    static func readyFlash(_ back: Ride, when: String) -> String {
        back.status == .approved
            ? "Your way back is booked and approved: the van picks you up at \(when)."
            : "Your way back is requested for \(when). It is waiting for the dispatcher's approval; you will get a notification."
    }
}
