import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The rider's series page (`/series/{id}`): the pattern, upcoming dates, holds and closed days,
/// with a form to change one date or every date from one on, a form to hold a date range, and a
/// Resume button on each open hold. A change or a resume first shows the check page (what fits,
/// what does not with the scheduler's suggestions, one choice per date) and changes nothing until
/// she confirms; a confirm that a date refuses shows the check page again with the new answer.
/// Every form is a CSRF form answered by a redirect or a page; errors sit next to their field with
/// her input kept. The same ``SeriesService`` as the API and vanadmin; another rider's series is a 404.
struct WebSeriesRoutes: Sendable {
    let pages: WebPages
    var actions: WebRiderActions { pages.actions }

    func register(signedIn: RouterGroup<AppRequestContext>) {
        signedIn.get("series/:id", use: page)
        signedIn.post("series/:id/edit", use: checkEdit)
        signedIn.post("series/:id/edit/apply", use: applyEdit)
        signedIn.post("series/:id/hold", use: hold)
        signedIn.post("series/:id/holds/:hold/resume", use: checkResume)
        signedIn.post("series/:id/holds/:hold/resume/apply", use: applyResume)
    }

    /// The edit form's and hold form's fields, as she typed them.
    static let editFields = ["date", "scope", "time", "promise", "pickup", "dropoff"]

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let count = query["n"].flatMap { Int($0) } ?? 0
        let flash: String? =
            switch query["done"].map(String.init) {
            case "edited": "Your series is changed. Each changed ride is in your notifications."
            case "held": "Your series is on hold: \(count) ride\(count == 1 ? " is" : "s are") cancelled. They are not late cancellations."
            case "resumed": "Your series is resumed: \(count) ride\(count == 1 ? " is" : "s are") booked again."
            default: nil
            }
        return try await seriesPage(request, context, form: [:], errors: [], flash: flash)
    }

    // MARK: Editing

    @Sendable func checkEdit(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await edit(request, context, apply: false)
    }

    @Sendable func applyEdit(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await edit(request, context, apply: true)
    }

    private func edit(_ request: Request, _ context: AppRequestContext, apply: Bool) async throws -> Response {
        let session = try WebPages.session(context)
        let id = try Self.id(context)
        let form = try await pages.form(request)
        var typed: [String: String] = [:]
        for name in Self.editFields { typed[name] = form[name] }
        func input(_ text: String?) -> PlaceMatcher.Input? { (text ?? "").isEmpty ? nil : PlaceMatcher.Input(place: text) }
        let edit = SeriesEditRequest(
            scope: typed["scope"], date: typed["date"], time: typed["time"], promise: typed["promise"], pickup: input(typed["pickup"]),
            dropoff: input(typed["dropoff"]), choices: apply ? Self.choices(form) : [:])
        let answer: SeriesChangeAnswer
        do {
            answer = try await actions.editSeries(id, of: session.netID, edit, apply: apply)
        } catch let error as InvalidFields {
            return try await seriesPage(request, context, form: typed, errors: Self.fieldErrors(error), status: .unprocessableContent)
        }
        if answer.applied { throw WebAnswer.redirect("/series/\(id.uuidString.lowercased())?done=edited") }
        return try await checkPage(
            request, context, answer, action: "/series/\(id.uuidString.lowercased())/edit/apply", carried: typed, canKeep: true, refused: apply)
    }

    // MARK: Holds

    @Sendable func hold(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let id = try Self.id(context)
        let form = try await pages.form(request)
        let typed = ["from": form["from"], "to": form["to"]]
        do {
            let held = try await actions.holdSeries(id, of: session.netID, from: typed["from"], to: typed["to"])
            throw WebAnswer.redirect("/series/\(id.uuidString.lowercased())?done=held&n=\(held.cancelled.count)")
        } catch let error as InvalidFields {
            return try await seriesPage(request, context, form: typed, errors: Self.fieldErrors(error), status: .unprocessableContent)
        }
    }

    @Sendable func checkResume(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await resume(request, context, apply: false)
    }

    @Sendable func applyResume(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await resume(request, context, apply: true)
    }

    private func resume(_ request: Request, _ context: AppRequestContext, apply: Bool) async throws -> Response {
        let session = try WebPages.session(context)
        let id = try Self.id(context)
        guard let hold = context.parameters.get("hold").flatMap({ Int64($0) }) else { throw WebErrorPage.notFound("Hold not found") }
        let form = try await pages.form(request)
        let answer: SeriesChangeAnswer
        do {
            answer = try await actions.resumeSeries(id, hold: hold, of: session.netID, choices: apply ? Self.choices(form) : [:], apply: apply)
        } catch SeriesError.holdNotOpen {
            return try await seriesPage(
                request, context, form: [:], errors: [], flash: "That hold is over or was resumed already, so nothing changed.", status: .conflict)
        }
        if answer.applied {
            let booked = answer.dates.filter { if case .fits = $0.result { true } else { false } }.count
            throw WebAnswer.redirect("/series/\(id.uuidString.lowercased())?done=resumed&n=\(booked)")
        }
        return try await checkPage(
            request, context, answer, action: "/series/\(id.uuidString.lowercased())/holds/\(hold)/resume/apply", carried: [:], canKeep: false,
            refused: apply)
    }

    // MARK: Pages

    /// The series page, with the forms' input and errors.
    private func seriesPage(
        _ request: Request, _ context: AppRequestContext, form: [String: String], errors: [WebBookingForm.FieldError], flash: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let session = try WebPages.session(context)
        let id = try Self.id(context)
        let now = actions.now
        let detail: SeriesDetail
        do {
            detail = try await actions.series(id, of: session.netID)
        } catch SeriesError.notFound {
            throw WebErrorPage.notFound("Series not found", detail: "There is no such series among your rides.")
        }
        let view = WebSeriesView(timeZone: actions.timeZone, now: now)
        var page = WebPages.Page(
            template: "series-page", title: (errors.isEmpty ? "" : "Error: ") + "Your weekly rides", status: status, nav: "rides")
        var typed = form
        if typed["scope"] == nil { typed["scope"] = "one" }
        page.values = WebPages.formValues(typed, errors: errors, targets: ["scope": "scope-one", "promise": "promise-same"])
        page.values.merge(view.series(detail)) { $1 }
        page.values["flash"] = flash
        page.values["scopeOne"] = typed["scope"] != "from"
        page.values["promise-" + (typed["promise"].flatMap { $0.isEmpty ? nil : $0 } ?? "same")] = true
        page.values["dateOptions"] = view.dateOptions(detail, chosen: typed["date"])
        return try await pages.render(page, request: request, context: context)
    }

    /// What a change would do, date by date, with a choice for each date that does not fit.
    private func checkPage(
        _ request: Request, _ context: AppRequestContext, _ answer: SeriesChangeAnswer, action: String, carried: [String: String], canKeep: Bool,
        refused: Bool
    ) async throws -> Response {
        let view = WebSeriesView(timeZone: actions.timeZone, now: actions.now)
        var page = WebPages.Page(
            template: "series-check", title: (refused ? "Error: " : "") + "Check the change to your weekly rides", status: refused ? .conflict : .ok,
            nav: "rides")
        page.values = view.check(answer, canKeep: canKeep, missing: refused)
        page.values["action"] = action
        page.values["seriesID"] = answer.series.id.uuidString.lowercased()
        page.values["carried"] = carried.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] }
        page.values["refused"] = refused
        return try await pages.render(page, request: request, context: context)
    }

    // MARK: Helpers

    /// `choice-YYYY-MM-DD` radio buttons into the service's choices.
    static func choices(_ form: WebForm) -> [String: String] {
        var choices: [String: String] = [:]
        for (name, value) in form.pairs where name.hasPrefix("choice-") && !value.isEmpty { choices[String(name.dropFirst(7))] = value }
        return choices
    }

    /// The service's field names on the page's controls: `pickup.place` is the `pickup` box.
    static func fieldErrors(_ problems: InvalidFields) -> [WebBookingForm.FieldError] {
        problems.errors.map { error in
            let field = String(error.field.split(separator: ".").first ?? Substring(error.field))
            return WebBookingForm.FieldError(field: field, message: WebBookingForm.sentence(label: Self.labels[field] ?? field, reason: error.reason))
        }
    }

    static let labels = [
        "date": "The date", "scope": "Which dates", "time": "The new time", "promise": "Pickup or arrival", "pickup": "The pickup place",
        "dropoff": "The drop-off place", "from": "The first date held", "to": "The last date held", "choices": "Your choice",
    ]

    static func id(_ context: AppRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw WebErrorPage.notFound("Series not found", detail: "There is no such series among your rides.")
        }
        return id
    }
}
