import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler

/// Booking for a rider who phones (`/dispatch/book`): find her by net ID or name, then book
/// for her through the rider's own form path (``WebBookingFlow``: the same fields, rules,
/// ``BookingService`` call and suggestions), named in the audit log and the ride's events as
/// the dispatcher who booked (``WebDispatchActions/actor(_:)``).
struct WebDispatchPhoneRoutes: Sendable {
    let console: WebDispatchRoutes
    var actions: WebDispatchActions { console.dispatch }
    var flow: WebBookingFlow { WebBookingFlow(pages: console.pages) }

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/book", use: find)
        group.get("dispatch/book/:netid", use: formPage)
        group.post("dispatch/book/:netid", use: book)
        group.get("dispatch/book/:netid/rides/:id", use: booked)
    }

    /// The address of the booking form for `netID`.
    static func path(_ netID: NetID) -> String { "/dispatch/book/\(netID.rawValue)" }

    // MARK: Find the rider

    @Sendable func find(_ request: Request, context: AppRequestContext) async throws -> Response {
        // Read as a form: a GET form sends a space as "+".
        let q = String(WebForm(encoded: request.uri.query ?? "")["q"].prefix(RiderDirectory.maxSearchLength))
        var page = console.page("dispatch-book", title: "Book for a rider", nav: "phone", styles: ["dispatch-phone.css"])
        page.values["q"] = q
        let searched = !q.trimmingCharacters(in: .whitespaces).isEmpty
        page.values["searched"] = searched
        if searched {
            let found = try await actions.findRiders(q)
            let shown = found.prefix(RiderDirectory.maxResults)
            page.values["results"] = shown.map { rider -> [String: Any] in
                var row: [String: Any] = [
                    "name": rider.name ?? rider.netID.rawValue, "netID": rider.netID.rawValue, "phone": rider.phone ?? "none on file",
                    "cleared": rider.cleared, "link": Self.path(rider.netID),
                ]
                row["reason"] = rider.notClearedReason
                row["disabled"] = rider.disabled
                return row
            }
            page.values["hasResults"] = !shown.isEmpty
            page.values["more"] = found.count > shown.count
            page.values["maxResults"] = String(RiderDirectory.maxResults)
            page.values["resultsTitle"] =
                shown.isEmpty
                ? "No rider matches \u{201C}\(q)\u{201D}"
                : "\(found.count > shown.count ? "More than \(shown.count)" : String(shown.count)) rider\(shown.count == 1 ? "" : "s") matching \u{201C}\(q)\u{201D}"
            page.title = "\(page.values["resultsTitle"] as? String ?? "") – Book for a rider"
        }
        return try await console.pages.render(page, request: request, context: context)
    }

    // MARK: The booking form for her

    @Sendable func formPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let rider = try await self.rider(context)
        let prepared = try await console.pages.actions.bookingContext(rider.netID)
        return try await form(
            rider, WebBookingForm(kind: .ahead), WebBookingFlow.Trouble(places: prepared.places, eligibility: prepared.eligibility),
            request, context)
    }

    @Sendable func book(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let rider = try await self.rider(context)
        let sent = try await console.pages.form(request)
        let submitted = WebBookingForm(kind: sent["when"] == "now" ? .now : .ahead, form: sent)
        guard rider.cleared else {
            return try await form(rider, submitted, WebBookingFlow.Trouble(places: [], status: .forbidden), request, context)
        }
        let result = try await flow.submit(submitted, sent: sent, for: rider.netID, bookedBy: try await actions.actor(session), ownRideLinks: false)
        switch result {
        case .form(let trouble):
            return try await form(rider, submitted, trouble, request, context)
        case .booked(let ride), .trip(let ride, _):
            throw WebAnswer.redirect("\(Self.path(rider.netID))/rides/\(ride.id.uuidString.lowercased())")
        case .alreadyBooked(let id):
            throw WebAnswer.redirect(id.map { "\(Self.path(rider.netID))/rides/\($0.uuidString.lowercased())" } ?? Self.path(rider.netID))
        case .series(let outcomes):
            return try await series(rider, submitted, outcomes, request, context)
        }
    }

    /// The rider named in the address: a rider (never a driver or dispatcher), or the not-found page.
    private func rider(_ context: AppRequestContext) async throws -> RiderDirectory.Listing {
        guard let text = context.parameters.get("netid"), let netID = try? NetID(text), let rider = try await actions.rider(netID) else {
            throw WebErrorPage.notFound("Rider not found", detail: "No rider has this net ID. Find her by name on the booking page.")
        }
        return rider
    }

    /// The form for `rider`, fresh or with what was typed and why it is shown again; no form
    /// for a rider who is not cleared to book, but the reason.
    private func form(
        _ rider: RiderDirectory.Listing, _ submitted: WebBookingForm, _ trouble: WebBookingFlow.Trouble,
        _ request: Request, _ context: AppRequestContext
    ) async throws -> Response {
        let name = rider.name ?? rider.netID.rawValue
        var page = console.page("dispatch-book-form", title: "Book for \(name)", nav: "phone", styles: ["dispatch-phone.css"], scripts: ["places.js"])
        page.values = riderValues(rider)
        page.values["console"] = true
        page.values["whenNow"] = submitted.kind == .now
        try await flow.fill(&page, submitted, trouble: trouble, action: Self.path(rider.netID))
        if let reason = rider.notClearedReason {
            page.values["notCleared"] = reason
            page.status = request.method == .post ? .forbidden : .ok
        }
        if trouble.suspended == nil { page.values["suspension"] = try await suspension(of: rider.netID) }
        return try await console.pages.render(page, request: request, context: context)
    }

    /// What the dispatcher on the phone should know before booking: the rider's suspension under
    /// the no-show policy that is in effect or to come (its dates, and the last day to appeal), or nil.
    private func suspension(of netID: NetID) async throws -> String? {
        let standing = try await console.pages.actions.riderStanding(netID)
        let today = actions.today
        guard let s = standing.cases.first(where: { ($0.status == .proposed || $0.status == .upheld) && today < $0.endsOn }) else { return nil }
        let clock = ServiceTime(timeZone: actions.timeZone)
        var text =
            "Notice \(s.id): her rides \(today >= s.startsOn ? "are" : "will be") suspended \(s.periodWords(clock)); "
            + "a booking on those days is refused."
        if s.canAppeal(on: today) { text += " She may appeal until \(Suspension.day(s.appealBy, clock)), which puts it on hold." }
        return text
    }

    private func riderValues(_ rider: RiderDirectory.Listing) -> [String: Any] {
        var values: [String: Any] = [
            "riderName": rider.name ?? rider.netID.rawValue, "riderNetID": rider.netID.rawValue,
            "riderPath": Self.path(rider.netID),
        ]
        values["riderPhone"] = rider.phone
        return values
    }

    // MARK: Booked

    @Sendable func booked(_ request: Request, context: AppRequestContext) async throws -> Response {
        let rider = try await self.rider(context)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)), let ride = try await actions.ride(id, of: rider.netID) else {
            throw WebErrorPage.notFound("Ride not found", detail: "This rider has no such ride.")
        }
        var page = console.page(
            "dispatch-book-done", title: "Booked for \(rider.name ?? rider.netID.rawValue): \(ride.ref.rawValue)", nav: "phone",
            styles: ["dispatch-phone.css"])
        page.values = riderValues(rider)
        page.values["rides"] = [rideValues(ride)]
        page.values["single"] = true
        page.values["willCall"] = try await actions.willCall(of: ride.id) != nil
        return try await console.pages.render(page, request: request, context: context)
    }

    /// What a weekly series booked for her came to: each ride booked, each taken date with its
    /// sentence and one-tap suggestions.
    private func series(
        _ rider: RiderDirectory.Listing, _ submitted: WebBookingForm, _ outcomes: [BookingOutcome],
        _ request: Request, _ context: AppRequestContext
    ) async throws -> Response {
        var rides: [[String: Any]] = []
        var conflicts: [[String: Any]] = []
        let clock = ServiceTime(timeZone: actions.timeZone)
        for outcome in outcomes {
            switch outcome {
            case .booked(let ride): rides.append(rideValues(ride))
            case .refused(let feasibility, let sentence):
                conflicts.append(["sentence": sentence, "suggestions": flow.suggestions(submitted, feasibility.suggestions)])
            case .overlaps:
                conflicts.append(["sentence": outcome.sentence(clock: clock) ?? "", "suggestions": [[String: Any]]()])
            }
        }
        let name = rider.name ?? rider.netID.rawValue
        var page = console.page("dispatch-book-done", title: "Weekly rides for \(name)", nav: "phone", styles: ["dispatch-phone.css"])
        page.status = rides.isEmpty ? .conflict : .ok
        page.values = riderValues(rider)
        page.values["rides"] = rides
        page.values["someBooked"] = !rides.isEmpty
        page.values["bookedCount"] = String(rides.count)
        page.values["conflicts"] = conflicts
        page.values["hasConflicts"] = !conflicts.isEmpty
        page.values["bookAction"] = Self.path(rider.netID)
        return try await console.pages.render(page, request: request, context: context)
    }

    /// A booked ride as the confirmation reads it out: the reference, the time and the van's promise.
    private func rideValues(_ ride: Ride) -> [String: Any] {
        let words = console.pages.words
        let now = actions.now
        let window = ride.promise.window
        var values: [String: Any] = [
            "ref": ride.ref.rawValue, "refSpelled": ride.ref.spelled, "when": words.words(ride.pickupAt, now: now),
            "from": ride.pickup.displayName, "to": ride.dropoff.displayName, "status": WebRideRoutes.statusText(ride.status),
            "promise": ride.promise.kind == .arriveBy
                ? "arrives \(window.duration > 0 ? "between \(words.time(window.start)) and \(words.time(window.end))" : "by \(words.time(window.end))")"
                : window.duration > 0
                    ? "picks up between \(words.time(window.start)) and \(words.time(window.end)): be ready for the whole window"
                    : "picks up at \(words.time(window.start))",
            "dropoffAt": words.time(ride.estimatedDropoffAt),
        ]
        values["van"] = ride.vanName
        return values
    }
}
