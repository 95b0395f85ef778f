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
        let submitted = WebBookingForm(kind: kind, form: try await pages.form(request))
        let prepared = try await actions.bookingContext(session.netID)
        guard prepared.eligibility.isEligible else { return try await form(submitted, request, context, places: prepared.places, eligibility: prepared.eligibility) }
        let policy = actions.settings.policy
        switch submitted.rides(netID: session.netID, places: prepared.places, policy: policy, autoApprove: actions.settings.autoApprove,
                               timeZone: actions.timeZone, now: actions.now) {
        case .failure(let problems):
            return try await form(submitted, request, context, places: prepared.places, errors: problems.errors)
        case .success(let (rides, seriesID)):
            let outcomes = try await actions.book(rides)
            if seriesID == nil {
                switch outcomes[0] {
                case .booked(let ride):
                    throw WebAnswer.redirect("/rides/\(ride.id.uuidString.lowercased())?done=booked")
                case .refused(let feasibility, let sentence):
                    return try await form(submitted, request, context, places: prepared.places, conflict: (feasibility, sentence))
                }
            }
            return try await seriesResult(submitted, outcomes: outcomes, request, context)
        }
    }

    /// The form, fresh or with what the rider typed and what went wrong.
    private func form(_ submitted: WebBookingForm, _ request: Request, _ context: AppRequestContext, places known: [Place]? = nil,
                      eligibility knownEligibility: Eligibility? = nil, errors: [WebBookingForm.FieldError] = [],
                      conflict: (Feasibility, String)? = nil) async throws -> Response {
        let session = try WebPages.session(context)
        var places = known ?? []
        var eligibility = knownEligibility
        if known == nil || eligibility == nil {
            let prepared = try await actions.bookingContext(session.netID)
            places = prepared.places
            eligibility = prepared.eligibility
        }
        let now = actions.now
        let words = pages.words
        let isNow = submitted.kind == .now
        var page = WebPages.Page(template: isNow ? "ride-now" : "book", title: isNow ? "Ride now" : "Book ahead", nav: isNow ? "now" : "book")
        page.scripts = isNow ? ["places.js", "locate.js"] : ["places.js"]
        page.values = WebPages.formValues(submitted.values, errors: errors, targets: ["repeat_days": "day-\(Self.weekdays[0].value)"])
        if !errors.isEmpty {
            page.title = "Error: " + page.title
            page.status = .unprocessableContent
        }
        if let eligibility, !eligibility.isEligible {
            page.status = .forbidden
            page.values["notEligible"] = true
            page.values["eligibleUntil"] = eligibility.until?.description
        }
        page.values["places"] = places.map { place -> [String: String] in
            ["name": place.name, "aliases": place.aliases.joined(separator: ", ")]
        }
        page.values["wheelchair"] = submitted.wheelchair
        page.values["arriveBy"] = submitted.arriveBy
        page.values["companionOptions"] = (0...actions.settings.policy.maxCompanions).map { count -> [String: Any] in
            let label = count == 0 ? "None" : String(count)
            return ["value": String(count), "label": label, "selected": submitted.companions == String(count)]
        }
        let lead = now.addingTimeInterval(actions.settings.policy.onDemandLead)
        page.values["pickupWords"] = words.words(lead, now: now)
        page.values["windowEnd"] = words.time(lead.addingTimeInterval(WebBookingForm.pickupWindow))
        let today = words.formFields(now).date
        page.values["minDate"] = today
        page.values["maxDate"] = words.formFields(now.addingTimeInterval(actions.settings.policy.horizon)).date
        page.values["repeat"] = submitted.repeats
        page.values["weekdays"] = Self.weekdays.map { day -> [String: Any] in
            ["value": day.value, "label": day.label, "checked": submitted.repeatDays.contains(day.value)]
        }
        if let (feasibility, sentence) = conflict {
            page.status = .conflict
            page.title = "Time taken: " + page.title
            page.values["conflict"] = [
                "sentence": sentence,
                "suggestions": feasibility.suggestions.map { suggestion in
                    suggestionForm(submitted.at(suggestion.asked, timeZone: actions.timeZone), label: words.words(suggestion.asked, now: now))
                },
            ] as [String: Any]
        }
        return try await pages.render(page, request: request, context: context)
    }

    /// A one-tap form that books the same ride at a suggested time.
    private func suggestionForm(_ form: WebBookingForm, label: String) -> [String: Any] {
        var hidden = form.values.filter { !$0.value.isEmpty && $0.key != "repeat_until" }.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] }
        if form.wheelchair { hidden.append(["name": "wheelchair", "value": "yes"]) }
        return ["label": label, "hidden": hidden]
    }

    /// What a weekly series came to: the rides booked, and each taken date with its sentence.
    private func seriesResult(_ submitted: WebBookingForm, outcomes: [BookingOutcome], _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let now = actions.now
        var booked: [String] = []
        var conflicts: [[String: Any]] = []
        for outcome in outcomes {
            switch outcome {
            case .booked(let ride): booked.append(pages.words.words(ride.pickupAt, now: now))
            case .refused(let feasibility, let sentence):
                conflicts.append(["sentence": sentence, "suggestions": feasibility.suggestions.map { suggestion in
                    suggestionForm(submitted.at(suggestion.asked, timeZone: actions.timeZone), label: pages.words.words(suggestion.asked, now: now))
                }])
            }
        }
        if conflicts.isEmpty { throw WebAnswer.redirect("/rides?done=series&n=\(booked.count)") }
        var page = WebPages.Page(template: "series", title: "Your weekly rides", status: booked.isEmpty ? .conflict : .ok, nav: "book")
        page.values = ["booked": booked, "bookedCount": String(booked.count), "someBooked": !booked.isEmpty, "conflicts": conflicts]
        return try await pages.render(page, request: request, context: context)
    }
}
