import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// "Ride now" and "Book ahead", and the one-tap answer to a taken time.
struct WebBookingRoutes: Sendable {
    let pages: WebPages
    var actions: WebRiderActions { pages.actions }
    var flow: WebBookingFlow { WebBookingFlow(pages: pages) }

    /// The weekly repeat's checkboxes (`day-<value>`), in the order shown.
    static let weekdays: [(value: String, label: String)] = [
        ("mon", "Monday"), ("tue", "Tuesday"), ("wed", "Wednesday"), ("thu", "Thursday"), ("fri", "Friday"), ("sat", "Saturday"), ("sun", "Sunday"),
    ]

    func register(signedIn: RouterGroup<AppRequestContext>) {
        signedIn.get("ride-now", use: rideNowPage)
        signedIn.post("ride-now", use: rideNow)
        signedIn.get("book", use: bookPage)
        signedIn.post("book", use: book)
    }

    @Sendable func rideNowPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await form(WebBookingForm(kind: .now), request, context)
    }

    @Sendable func bookPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await form(WebBookingForm(kind: .ahead), request, context)
    }

    @Sendable func rideNow(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await submit(.now, request, context)
    }

    @Sendable func book(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await submit(.ahead, request, context)
    }

    private func submit(_ kind: WebBookingForm.Kind, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let sent = try await pages.form(request)
        let submitted = WebBookingForm(kind: kind, form: sent)
        switch try await flow.submit(submitted, sent: sent, for: session.netID) {
        case .form(let trouble):
            return try await form(submitted, request, context, trouble: trouble)
        case .booked(let ride):
            throw WebAnswer.redirect("/rides/\(ride.id.uuidString.lowercased())?done=booked")
        case .trip(let there, _):
            throw WebAnswer.redirect("/rides/\(there.id.uuidString.lowercased())?done=booked-trip")
        case .alreadyBooked(let id):
            throw WebAnswer.redirect(id.map { "/rides/\($0.uuidString.lowercased())?done=booked" } ?? "/rides")
        case .series(let outcomes):
            return try await seriesResult(submitted, outcomes: outcomes, request, context)
        }
    }

    /// The form, fresh or with what the rider typed and what went wrong.
    private func form(
        _ submitted: WebBookingForm, _ request: Request, _ context: AppRequestContext,
        trouble known: WebBookingFlow.Trouble? = nil
    ) async throws -> Response {
        let session = try WebPages.session(context)
        let trouble: WebBookingFlow.Trouble
        if let known {
            trouble = known
        } else {
            let prepared = try await actions.bookingContext(session.netID)
            trouble = WebBookingFlow.Trouble(places: prepared.places, eligibility: prepared.eligibility)
        }
        let isNow = submitted.kind == .now
        var page = WebPages.Page(template: isNow ? "ride-now" : "book", title: isNow ? "Ride now" : "Book ahead", nav: isNow ? "now" : "book")
        page.scripts = isNow ? ["places.js", "locate.js"] : ["places.js"]
        try await flow.fill(&page, submitted, trouble: trouble, action: "/book")
        // Said before she fills the form in, unless the refusal already says it.
        if trouble.suspended == nil { page.values["suspensionAhead"] = try await actions.suspensionAhead(session.netID) }
        return try await pages.render(page, request: request, context: context)
    }

    /// What a weekly series came to: the rides booked, and each taken date with its sentence.
    private func seriesResult(_ submitted: WebBookingForm, outcomes: [BookingOutcome], _ request: Request, _ context: AppRequestContext) async throws
        -> Response
    {
        let now = actions.now
        var booked: [String] = []
        var conflicts: [[String: Any]] = []
        for outcome in outcomes {
            switch outcome {
            case .booked(let ride): booked.append(pages.words.words(ride.pickupAt, now: now))
            case .refused(let feasibility, let sentence):
                conflicts.append(["sentence": sentence, "suggestions": flow.suggestions(submitted, feasibility.suggestions)])
            case .overlaps(let other):
                conflicts.append([
                    "sentence": outcome.sentence(clock: ServiceTime(timeZone: actions.timeZone)) ?? "",
                    "suggestions": [[String: Any]](), "link": WebRideRoutes.path(of: other),
                ])
            }
        }
        if conflicts.isEmpty { throw WebAnswer.redirect("/rides?done=series&n=\(booked.count)") }
        var page = WebPages.Page(template: "series", title: "Your weekly rides", status: booked.isEmpty ? .conflict : .ok, nav: "book")
        page.values = [
            "booked": booked, "bookedCount": String(booked.count), "someBooked": !booked.isEmpty, "conflicts": conflicts, "bookAction": "/book",
        ]
        return try await pages.render(page, request: request, context: context)
    }
}
