import Foundation
import Hummingbird
import VanDomain
import VanServices

/// A rider's standing series at the console (`/dispatch/riders/{netid}/series`), for a rider who
/// phones: each series' pattern, next dates, holds and closed days, a form to hold a date range
/// and a Resume button on each open hold. A resume first shows what it would book (each date fits,
/// or does not with the scheduler's suggestions and a choice) and changes nothing until the
/// dispatcher confirms. The rider's own ``SeriesService`` calls with the dispatcher as `actor`
/// (audited, named in her rides' events); CSRF forms answered by a redirect with the console's
/// flash, or the page again with the errors next to their fields and the input kept.
struct WebDispatchSeriesRoutes: Sendable {
    let console: WebDispatchRoutes

    /// Adds the page and its forms to the console's routes (dispatchers only).
    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/riders/:netid/series", use: page)
        group.post("dispatch/riders/:netid/series/:id/hold", use: hold)
        group.post("dispatch/riders/:netid/series/:id/holds/:hold/resume", use: checkResume)
        group.post("dispatch/riders/:netid/series/:id/holds/:hold/resume/apply", use: applyResume)
    }

    /// The address of `netID`'s series page.
    static func path(_ netID: NetID) -> String { "/dispatch/riders/\(netID.rawValue)/series" }

    /// The next dates listed for each series; the rest are counted.
    static let datesShown = 6

    private var actions: WebDispatchActions { console.dispatch }
    private var secure: Bool { console.pages.cookies.secureCookies }

    /// A hold form that was refused: which series, what was typed, and each field's message.
    struct HoldError {
        /// The series the form holds.
        var series: UUID
        /// The dates as typed.
        var from: String, to: String
        /// `from` and `to`'s messages.
        var errors: [WebBookingForm.FieldError]
    }

    // MARK: The page

    /// `GET`: her series, with the flash of the last action.
    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await seriesPage(try await rider(context), request, context)
    }

    private func seriesPage(
        _ rider: RiderDirectory.Listing, _ request: Request, _ context: AppRequestContext, error: HoldError? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let name = rider.name ?? rider.netID.rawValue
        let view = WebSeriesView(timeZone: actions.timeZone, now: actions.now)
        let base = Self.path(rider.netID)
        var all: [[String: Any]] = []
        for (index, detail) in try await actions.series(of: rider.netID).enumerated() {
            var values = view.series(detail)
            let id = detail.series.id.uuidString.lowercased()
            let rides = values["rides"] as? [[String: Any]] ?? []
            values["rides"] = Array(rides.prefix(Self.datesShown))
            values["moreDates"] = rides.count > Self.datesShown ? String(rides.count - Self.datesShown) : nil
            values["n"] = String(index + 1)
            values["holdAction"] = "\(base)/\(id)/hold"
            values["resumeBase"] = "\(base)/\(id)/holds"
            if let error, error.series == detail.series.id {
                values["fromValue"] = error.from
                values["toValue"] = error.to
                for field in error.errors { values[field.field + "Error"] = field.message }
            }
            all.append(values)
        }
        var page = console.page(
            "dispatch-series", title: (error == nil ? "" : "Error: ") + "Weekly rides of \(name)", nav: "phone", styles: ["dispatch-phone.css"])
        page.status = status
        page.values = [
            "riderName": name, "riderNetID": rider.netID.rawValue, "riderPath": WebDispatchPhoneRoutes.path(rider.netID),
            "series": all, "hasSeries": !all.isEmpty,
        ]
        if let error, let n = all.firstIndex(where: { $0["holdAction"] as? String == "\(base)/\(error.series.uuidString.lowercased())/hold" }) {
            page.values["hasErrors"] = true
            page.values["errorList"] = error.errors.map { ["target": "\($0.field)-\(n + 1)", "message": $0.message] }
        }
        if let flash = WebDispatchFlash.read(request) {
            page.values.merge(flash.values) { $1 }
            page.cookies.append(WebDispatchFlash.cleared(secure: secure))
        }
        return try await console.pages.render(page, request: request, context: context)
    }

    // MARK: Hold

    /// `POST …/{id}/hold`: holds the dates, or shows the page again with why by each field.
    @Sendable func hold(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let rider = try await rider(context)
        let id = try Self.seriesID(context)
        let form = try await console.pages.form(request)
        let from = String(form["from"].prefix(40)), to = String(form["to"].prefix(40))
        let held: SeriesHoldAnswer
        do {
            held = try await actions.holdSeries(id, of: rider.netID, from: from, to: to, actor: try await actions.actor(session))
        } catch let error as InvalidFields {
            let refused = HoldError(series: id, from: from, to: to, errors: WebSeriesRoutes.fieldErrors(error))
            return try await seriesPage(rider, request, context, error: refused, status: .unprocessableContent)
        } catch SeriesError.notFound {
            throw Self.seriesNotFound
        }
        console.pages.actions.pages?.changed(rider.netID)
        let view = WebSeriesView(timeZone: actions.timeZone, now: actions.now)
        let count = held.cancelled.count
        let flash = WebDispatchFlash(
            title: "Held the weekly rides of \(BidiIsolation.isolated(rider.name ?? rider.netID.rawValue)) from \(view.day(held.hold.from)) "
                + "to \(view.day(held.hold.to)): \(count) ride\(count == 1 ? "" : "s") cancelled, not late. She is told in her app.")
        throw WebAnswer.redirect(Self.path(rider.netID), cookies: [flash.cookie(secure: secure, session: WebSession.token(request) ?? "")])
    }

    // MARK: Resume

    @Sendable func checkResume(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await resume(request, context, apply: false)
    }

    @Sendable func applyResume(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await resume(request, context, apply: true)
    }

    /// Checks the resume (the check page), or makes it with the dispatcher's choices: a redirect
    /// with the flash, or the check page again (409) when a date does not fit as chosen.
    private func resume(_ request: Request, _ context: AppRequestContext, apply: Bool) async throws -> Response {
        let session = try WebPages.session(context)
        let rider = try await rider(context)
        let id = try Self.seriesID(context)
        guard let hold = context.parameters.get("hold").flatMap({ Int64($0) }) else { throw Self.seriesNotFound }
        let form = try await console.pages.form(request)
        let name = BidiIsolation.isolated(rider.name ?? rider.netID.rawValue)
        let answer: SeriesChangeAnswer
        do {
            answer = try await actions.resumeSeries(
                id, hold: hold, of: rider.netID, choices: apply ? WebSeriesRoutes.choices(form) : [:], apply: apply,
                actor: try await actions.actor(session))
        } catch SeriesError.notFound, SeriesError.holdNotFound {
            throw Self.seriesNotFound
        } catch SeriesError.holdNotOpen {
            let flash = WebDispatchFlash(
                warning: true, title: "That hold of \(name)'s weekly rides is over or was resumed already; nothing changed.")
            throw WebAnswer.redirect(Self.path(rider.netID), cookies: [flash.cookie(secure: secure, session: WebSession.token(request) ?? "")])
        }
        if answer.applied {
            console.pages.actions.pages?.changed(rider.netID)
            let booked = answer.dates.filter { if case .fits = $0.result { true } else { false } }.count
            let flash = WebDispatchFlash(
                title: "Resumed the weekly rides of \(name): \(booked) ride\(booked == 1 ? "" : "s") booked again. She is told in her app.")
            throw WebAnswer.redirect(Self.path(rider.netID), cookies: [flash.cookie(secure: secure, session: WebSession.token(request) ?? "")])
        }
        let view = WebSeriesView(timeZone: actions.timeZone, now: actions.now)
        var page = console.page(
            "dispatch-series-check", title: (apply ? "Error: " : "") + "Resume the weekly rides of \(rider.name ?? rider.netID.rawValue)",
            nav: "phone", styles: ["dispatch-phone.css"])
        page.status = apply ? .conflict : .ok
        page.values = view.check(answer, canKeep: false, missing: apply)
        page.values["riderName"] = rider.name ?? rider.netID.rawValue
        page.values["riderNetID"] = rider.netID.rawValue
        page.values["seriesPath"] = Self.path(rider.netID)
        page.values["action"] = "\(Self.path(rider.netID))/\(id.uuidString.lowercased())/holds/\(hold)/resume/apply"
        page.values["refused"] = apply
        page.values["nothing"] = answer.dates.isEmpty
        return try await console.pages.render(page, request: request, context: context)
    }

    // MARK: Helpers

    /// The rider named in the address (never a driver or dispatcher), or the not-found page.
    private func rider(_ context: AppRequestContext) async throws -> RiderDirectory.Listing {
        guard let text = context.parameters.get("netid"), let netID = try? NetID(text), let rider = try await actions.rider(netID) else {
            throw WebErrorPage.notFound("Rider not found", detail: "No rider has this net ID. Find her by name on the booking page.")
        }
        return rider
    }

    /// The answer to a series or hold that is not hers.
    private static var seriesNotFound: WebErrorPage { WebErrorPage.notFound("Series not found", detail: "This rider has no such series or hold.") }

    private static func seriesID(_ context: AppRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw seriesNotFound }
        return id
    }
}
