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
        let prepared = try await actions.bookingContext(session.netID)
        guard prepared.eligibility.isEligible else { return try await form(submitted, request, context, places: prepared.places, eligibility: prepared.eligibility) }
        let checked: CheckedBooking
        do {
            checked = try actions.check(submitted.request, for: session.netID, places: prepared.places)
        } catch {
            return try await form(submitted, request, context, places: prepared.places, errors: submitted.fieldErrors(error))
        }
        let outcomes: [BookingOutcome]
        let key = WebBookingForm.idempotencyKey(sent, netID: session.netID)
        if let key {
            switch try await actions.book(checked.rides, key: key) {
            case .fresh(let fresh): outcomes = fresh
            case .replay(let first): return try await replay(first, submitted, request, context, places: prepared.places)
            }
        } else {
            outcomes = try await actions.book(checked.rides)
        }
        guard checked.seriesID == nil else { return try await seriesResult(submitted, outcomes: outcomes, request, context) }
        switch outcomes[0] {
        case .booked(let ride):
            throw WebAnswer.redirect("/rides/\(ride.id.uuidString.lowercased())?done=booked")
        case .refused(let feasibility, let sentence):
            // Kept, so the same form sent again shows this refusal rather than booking.
            if let key { try await actions.recordAnswer(sentence, for: key) }
            return try await form(submitted, request, context, places: prepared.places, conflict: (sentence, feasibility.suggestions))
        case .overlaps(let other):
            let sentence = outcomes[0].sentence(clock: ServiceTime(timeZone: actions.timeZone)) ?? ""
            if let key { try await actions.recordAnswer(sentence, for: key) }
            let error = WebBookingForm.FieldError(field: kind == .now ? "pickup" : "time", message: sentence, link: WebRideRoutes.path(of: other))
            return try await form(submitted, request, context, places: prepared.places, errors: [error], status: .conflict)
        }
    }

    /// A form sent again (a double tap, a reload, the back button): what the first sending made.
    private func replay(_ first: RememberedBooking, _ submitted: WebBookingForm, _ request: Request, _ context: AppRequestContext,
                        places: [Place]) async throws -> Response {
        if first.outcome == .booked {
            throw WebAnswer.redirect(first.rideID.map { "/rides/\($0.uuidString.lowercased())?done=booked" } ?? "/rides")
        }
        let sentence = first.answer ?? "This form was sent already, and that time was not available. Choose another time."
        return try await form(submitted, request, context, places: places, conflict: (sentence, []))
    }

    /// The form, fresh or with what the rider typed and what went wrong.
    private func form(_ submitted: WebBookingForm, _ request: Request, _ context: AppRequestContext, places known: [Place]? = nil,
                      eligibility knownEligibility: Eligibility? = nil, errors: [WebBookingForm.FieldError] = [],
                      conflict: (sentence: String, suggestions: [Suggestion])? = nil, status: HTTPResponse.Status? = nil) async throws -> Response {
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
        page.values = WebPages.formValues(submitted.values, errors: errors)
        if !errors.isEmpty {
            page.title = "Error: " + page.title
            page.status = status ?? .unprocessableContent
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
        let window = try await actions.promiseWindow()
        page.values["windowEnd"] = words.time(lead.addingTimeInterval(window))
        page.values["windowMinutes"] = String(Int(window / 60))
        let today = words.formFields(now).date
        page.values["minDate"] = today
        page.values["maxDate"] = words.formFields(now.addingTimeInterval(actions.settings.policy.horizon)).date
        page.values["repeat"] = submitted.repeats
        let weekdays: [(String, String)] = [("mon", "Monday"), ("tue", "Tuesday"), ("wed", "Wednesday"), ("thu", "Thursday"),
                                            ("fri", "Friday"), ("sat", "Saturday"), ("sun", "Sunday")]
        page.values["weekdays"] = weekdays.map { day -> [String: Any] in
            ["value": day.0, "label": day.1, "checked": submitted.repeatDays.contains(day.0)]
        }
        page.values["formKey"] = WebBookingForm.newFormKey()
        if let (sentence, suggestions) = conflict {
            page.status = .conflict
            page.title = "Time taken: " + page.title
            page.values["conflict"] = [
                "sentence": sentence,
                "suggestions": suggestions.map { suggestion in
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
        hidden.append(["name": WebBookingForm.formKeyField, "value": WebBookingForm.newFormKey()])
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
            case .overlaps(let other):
                conflicts.append(["sentence": outcome.sentence(clock: ServiceTime(timeZone: actions.timeZone)) ?? "",
                                  "suggestions": [[String: Any]](), "link": WebRideRoutes.path(of: other)])
            }
        }
        if conflicts.isEmpty { throw WebAnswer.redirect("/rides?done=series&n=\(booked.count)") }
        var page = WebPages.Page(template: "series", title: "Your weekly rides", status: booked.isEmpty ? .conflict : .ok, nav: "book")
        page.values = ["booked": booked, "bookedCount": String(booked.count), "someBooked": !booked.isEmpty, "conflicts": conflicts]
        return try await pages.render(page, request: request, context: context)
    }
}
