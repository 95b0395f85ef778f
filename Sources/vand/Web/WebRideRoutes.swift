import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// "My rides": upcoming (holding a van), cancelled or not approved, and past; one ride's details, cancelling a ride or a whole series.
struct WebRideRoutes: Sendable {
    let pages: WebPages
    var actions: WebRiderActions { pages.actions }

    func register(signedIn: RouterGroup<AppRequestContext>) {
        signedIn.get("rides", use: list)
        signedIn.get("rides/:id", use: show)
        signedIn.get("rides/:id/cancel", use: confirmCancel)
        signedIn.post("rides/:id/cancel", use: cancel)
        signedIn.post("rides/:id/ready", use: ready)
        signedIn.get("series/:id/cancel", use: confirmSeriesCancel)
        signedIn.post("series/:id/cancel", use: cancelSeries)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let now = actions.now
        let upcoming = try await actions.upcoming(session.netID)
        let calledOff = try await actions.calledOff(session.netID)
        let past = try await actions.past(session.netID)
        let query = request.uri.queryParameters
        let count = query["n"].flatMap { Int($0) } ?? 0
        let flash: String? =
            switch query["done"].map(String.init) {
            case "cancelled": "Your ride is cancelled."
            case "cancelled-late":
                "Your ride is cancelled. It was less than \(lateMinutes) minutes before pickup, so it is recorded as a late cancellation."
            case "series": "\(count) weekly ride\(count == 1 ? " is" : "s are") requested and waiting for the dispatcher's approval."
            case "series-cancelled": "\(count) upcoming ride\(count == 1 ? " of the series is" : "s of the series are") cancelled."
            default: nil
            }
        var page = WebPages.Page(template: "rides", title: "My rides", nav: "rides")
        page.values = [
            "upcoming": upcoming.map { values($0, now: now) }, "past": past.map { values($0, now: now) },
            "calledOff": calledOff.map { values($0, now: now) },
            "hasUpcoming": !upcoming.isEmpty, "hasCalledOff": !calledOff.isEmpty, "hasPast": !past.isEmpty,
        ]
        page.values["flash"] = flash
        return try await pages.render(page, request: request, context: context)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let ride = try await ride(request, context)
        var page = try await ridePage(ride)
        switch request.uri.queryParameters["done"] {
        case "booked":
            page.values["flash"] =
                ride.status == .approved
                ? "Your ride is booked and approved."
                : "Your ride is requested. It is waiting for the dispatcher's approval; you will get a notification."
        case "booked-trip":
            page.values["flash"] =
                ride.status == .approved
                ? "Your ride and your way back are booked and approved."
                : "Your ride and your way back are requested. They are waiting for the dispatcher's approval; you will get a notification."
        case "ready":
            page.values["flash"] = Self.readyFlash(ride, when: pages.words.words(ride.pickupAt, now: actions.now))
        case "ready-already":
            page.values["flash"] = "You said you were ready already: this is your way back."
        default: break
        }
        return try await pages.render(page, request: request, context: context)
    }

    /// The ride's own page: its details, her van on the road, the other leg of a trip, and a
    /// will-call way back with its "I'm ready" (``willCall(_:into:)``).
    func ridePage(_ ride: Ride, title: String = "Your ride", status: HTTPResponse.Status = .ok) async throws -> WebPages.Page {
        var page = WebPages.Page(template: "ride", title: title, status: status, nav: "rides")
        page.values = try await liveValues(ride)
        // Her van on the road: a polite live region, filled now when she may see it, and by
        // app.js from the stream's `eta` events.
        page.values["etaLive"] = ride.status == .approved
        page.values["eta"] = try await actions.vanETA(ride)?.sentence
        try await linkTrip(ride, into: &page.values)
        try await willCall(ride, into: &page.values)
        return page
    }

    @Sendable func confirmCancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let ride = try await ride(request, context)
        var page = WebPages.Page(template: "cancel", title: "Cancel this ride?", nav: "rides")
        page.values = try await liveValues(ride)
        page.values["late"] = ride.pickupAt.timeIntervalSince(actions.now) <= actions.settings.policy.lateCancellation
        page.values["lateMinutes"] = String(lateMinutes)
        try await linkTrip(ride, into: &page.values)
        // A will-call way back still to call for is called off with it when she asks (`with_return`).
        page.values["willCallOpen"] = try await actions.willCall(of: ride.id, for: ride.netID)?.state == .open
        return try await pages.render(page, request: request, context: context)
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await pages.form(request)
        let id = try rideID(context)
        do {
            let cancelled = try await actions.cancel(id, of: session.netID, withReturn: form.isChecked("with_return"))
            throw WebAnswer.redirect("/rides?done=\(cancelled.late ? "cancelled-late" : "cancelled")")
        } catch let error as RiderRides.CancelError {
            if error == .notFound { throw notFound() }
            var page = WebPages.Page(template: "ride", title: "This ride cannot be cancelled", status: .conflict, nav: "rides")
            let ride = try await ride(request, context)
            page.values = try await liveValues(ride)
            page.values["problem"] = "This ride cannot be cancelled: \(error.description)."
            return try await pages.render(page, request: request, context: context)
        }
    }

    @Sendable func confirmSeriesCancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let id = try rideID(context)
        let now = actions.now
        // The rides the cancel will cancel: not one she is on board (the ride policy keeps it).
        var rides: [Ride] = []
        for ride in try await actions.upcoming(session.netID, limit: 100) where ride.seriesID == id {
            if try await actions.cancelRefusal(ride) == nil { rides.append(ride) }
        }
        guard !rides.isEmpty else { throw notFound("There are no upcoming rides in this series.") }
        var page = WebPages.Page(template: "series-cancel", title: "Cancel the whole series?", nav: "rides")
        page.values = [
            "seriesID": id.uuidString.lowercased(), "rides": rides.map { values($0, now: now) },
            "what": rides.count == 1 ? "its one upcoming ride" : "all \(rides.count) upcoming rides",
            "button": rides.count == 1 ? "Yes, cancel it" : "Yes, cancel all \(rides.count) rides",
        ]
        return try await pages.render(page, request: request, context: context)
    }

    @Sendable func cancelSeries(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        _ = try await pages.form(request)
        let count = try await actions.cancelSeries(try rideID(context), of: session.netID)
        guard count > 0 else { throw notFound("There are no upcoming rides in this series.") }
        throw WebAnswer.redirect("/rides?done=series-cancelled&n=\(count)")
    }

    // MARK: Helpers

    /// The other leg of a trip there and back, shown with the ride: its way back (`wayBack`, while
    /// it holds a van) or the ride there it returns from (`wayThere`).
    func linkTrip(_ ride: Ride, into values: inout [String: Any]) async throws {
        let words = pages.words, now = actions.now
        func leg(_ other: Ride) -> [String: Any] {
            ["href": Self.path(of: other), "when": words.words(other.pickupAt, now: now), "from": other.pickup.displayName]
        }
        if let there = ride.returnOf, let other = try await actions.ride(there, of: ride.netID) {
            values["wayThere"] = leg(other)
        } else if let back = try await actions.wayBack(of: ride.id, for: ride.netID), back.status.holdsVan {
            values["wayBack"] = leg(back)
        }
    }

    /// The web path of a ride's page.
    static func path(of ride: Ride) -> String { "/rides/\(ride.id.uuidString.lowercased())" }

    private var lateMinutes: Int { Int(actions.settings.policy.lateCancellation / 60) }

    func rideID(_ context: AppRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw notFound() }
        return id
    }

    func ride(_ request: Request, _ context: AppRequestContext) async throws -> Ride {
        let session = try WebPages.session(context)
        guard let ride = try await actions.ride(try rideID(context), of: session.netID) else { throw notFound() }
        return ride
    }

    func notFound(_ detail: String = "There is no such ride among your rides.") -> WebErrorPage {
        .notFound("Ride not found", detail: detail)
    }

    /// ``values(_:now:)`` as of now, with the road's word on cancelling (``RidePolicy``, the rule
    /// the cancel itself keeps): a rider the driver has boarded is not offered "Cancel this ride",
    /// whatever the planned time, and is told to tell the driver.
    func liveValues(_ ride: Ride) async throws -> [String: Any] {
        var shown = values(ride, now: actions.now)
        let refusal = try await actions.cancelRefusal(ride)
        shown["cancellable"] = refusal == nil
        if refusal == .onBoard { shown["onBoard"] = true }
        return shown
    }

    /// A ride as the templates show it (what the dispatcher sees, in words).
    func values(_ ride: Ride, now: Date) -> [String: Any] {
        let words = pages.words
        var values: [String: Any] = [
            "id": ride.id.uuidString.lowercased(),
            "ref": ride.ref.rawValue, "refSpelled": ride.ref.spelled,
            "when": words.words(ride.pickupAt, now: now),
            // The promise: be ready until the pickup window's end, or arrive inside the drop-off window.
            "windowEnd": words.time(ride.promise.window.end),
            "arriveBy": ride.promise.kind == .arriveBy,
            "arrivalWords": ride.promise.window.duration > 0
                ? "between \(words.time(ride.promise.window.start)) and \(words.time(ride.promise.window.end))"
                : "by \(words.time(ride.promise.window.end))",
            "dropoffAt": words.time(ride.estimatedDropoffAt),
            "from": ride.pickup.displayName, "to": ride.dropoff.displayName,
            "status": Self.statusText(ride.status), "statusClass": ride.status.rawValue,
            "kind": ride.kind == .onDemand ? "Ride now (on demand)" : "Booked ahead",
            "wheelchair": ride.needsWheelchair,
            "companions": ride.companions == 0 ? "None" : String(ride.companions),
            // The policy before the road is asked (lists); a ride's own page asks it with the road (liveValues).
            "cancellable": RidePolicy.refusal(.cancel, by: .rider, status: ride.status, pickupAt: ride.pickupAt, progress: .notReached, now: now)
                == nil,
        ]
        values["note"] = ride.note
        values["van"] = ride.vanName
        values["reason"] = ride.reason
        values["seriesID"] = ride.seriesID?.uuidString.lowercased()
        return values
    }

    /// The status a notification of each kind leaves its ride in, for `app.js` to show live:
    /// `data-status-<kind>="<class>|<words>|holds|released"` on the page's body.
    static let liveStatuses: [[String: String]] = [
        (RideEventKind.approved, RideStatus.approved), (.rejected, .rejected), (.cancelledByService, .cancelled), (.noShow, .noShow),
    ].map { kind, status in
        ["kind": kind.rawValue, "change": "\(status.rawValue)|\(WebRideRoutes.statusText(status))|\(status.holdsVan ? "holds" : "released")"]
    }

    static func statusText(_ status: RideStatus) -> String {
        switch status {
        case .pending: "Waiting for approval"
        case .approved: "Approved"
        case .rejected: "Not approved"
        case .cancelled: "Cancelled"
        case .completed: "Completed"
        case .noShow: "Missed (no-show)"
        }
    }
}
