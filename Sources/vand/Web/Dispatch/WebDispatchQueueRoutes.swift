import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The queue (`/dispatch`: pending rides, oldest booking first, approve or reject in one step,
/// approve all that still fit) and the alerts (`/dispatch/alerts`), with the console's live
/// stream (`/dispatch/stream`). Every action is one CSRF form answered by a redirect (its outcome
/// in ``WebDispatchFlash``); `dispatch-queue.js` re-fetches the `…/part` fragments on the stream's events.
struct WebDispatchQueueRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch", use: queue)
        group.get("dispatch/queue/part", use: queuePart)
        group.post("dispatch/approve", use: approve)
        group.post("dispatch/reject", use: reject)
        group.post("dispatch/approve-all", use: approveAll)
        group.get("dispatch/alerts", use: alerts)
        group.get("dispatch/alerts/part", use: alertsPart)
        group.post("dispatch/alerts/replay", use: replay)
        group.get("dispatch/stream", use: WebDispatchStream(console: console).stream)
    }

    var actions: WebDispatchActions { console.dispatch }
    var view: WebDispatchQueueView { WebDispatchQueueView(words: console.pages.words, now: actions.now) }
    var secure: Bool { console.pages.cookies.secureCookies }

    // MARK: The queue

    @Sendable func queue(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try WebPages.session(context)
        return try await queuePage(request, context)
    }

    /// The queue alone (no layout), for `dispatch-queue.js`.
    @Sendable func queuePart(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try WebPages.session(context)
        let page = WebDispatchQueueView.page(request.uri.queryParameters["page"])
        let values = try await queueValues(csrf: WebSession.csrfToken(request) ?? "", page: page)
        return console.pages.html(console.pages.assets.render("dispatch-queue-part", values), status: .ok, cookies: [])
    }

    private func queueValues(csrf: String, page: Int = 1, error: WebDispatchQueueView.RejectError? = nil) async throws -> [String: Any] {
        async let entries = actions.queue(page: page)
        async let total = actions.pendingCount()
        return view.queue(try await entries, total: try await total, page: page, csrf: csrf, error: error)
    }

    private func queuePage(
        _ request: Request, _ context: AppRequestContext, error: WebDispatchQueueView.RejectError? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var page = console.page(
            "dispatch-queue", title: error == nil ? "Queue" : "Error: Queue", nav: "queue",
            styles: ["dispatch-queue.css"], scripts: ["dispatch-live.js", "dispatch-queue.js"])
        page.status = status
        page.values = try await queueValues(
            csrf: WebSession.csrfToken(request) ?? "",
            page: WebDispatchQueueView.page(request.uri.queryParameters["page"]), error: error)
        if let error {
            page.values["hasErrors"] = true
            page.values["errorList"] = [["target": "reason-\(error.ref)", "message": error.message]]
        }
        flash(request, into: &page)
        return try await console.pages.render(page, request: request, context: context)
    }

    private func flash(_ request: Request, into page: inout WebPages.Page) {
        guard let flash = WebDispatchFlash.read(request) else { return }
        page.values.merge(flash.values) { $1 }
        page.cookies.append(WebDispatchFlash.cleared(secure: secure))
    }

    /// The redirect after an action, with its flash signed for the request's session.
    private func done(_ flash: WebDispatchFlash, _ request: Request, to location: String = "/dispatch") -> WebAnswer {
        WebAnswer.redirect(location, cookies: [flash.cookie(secure: secure, session: WebSession.token(request) ?? "")])
    }

    // MARK: Decisions

    @Sendable func approve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await console.pages.form(request)
        let ref = Self.ref(form["ride"]), back = Self.back(form["back"])
        let actor = try await actions.actor(session)
        do {
            let ride = try await actions.approve(ref, actor: actor)
            throw done(
                WebDispatchFlash(title: "Approved \(ride.ref.rawValue) for \(BidiIsolation.isolated(try await actions.riderName(ride.netID)))."),
                request, to: back)
        } catch let error as DispatchService.DispatchError {
            throw done(try await refusal(error, ref: ref, doing: "approved"), request, to: back)
        }
    }

    @Sendable func reject(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await console.pages.form(request)
        let ref = Self.ref(form["ride"]), reason = form.raw("reason"), back = Self.back(form["back"])
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= DispatchService.reasonLimit else {
            let shown = (try? RideRef(validating: ref).rawValue) ?? ref
            let message =
                trimmed.isEmpty
                ? "Give the reason the rider will read, then reject \(shown)"
                : "Shorten the reason to \(DispatchService.reasonLimit) characters (it has \(trimmed.count)); the rider reads it whole"
            let error = WebDispatchQueueView.RejectError(ref: shown, reason: reason, message: message)
            return try await queuePage(request, context, error: error, status: .unprocessableContent)
        }
        let actor = try await actions.actor(session)
        do {
            let ride = try await actions.reject(ref, reason: reason, actor: actor)
            throw done(
                WebDispatchFlash(
                    title:
                        "Rejected \(ride.ref.rawValue) for \(BidiIsolation.isolated(try await actions.riderName(ride.netID))). The rider reads: “\(BidiIsolation.isolated(ride.reason ?? reason))”"
                ), request, to: back)
        } catch let error as DispatchService.DispatchError {
            throw done(try await refusal(error, ref: ref, doing: "rejected"), request, to: back)
        }
    }

    @Sendable func approveAll(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        _ = try await console.pages.form(request)
        let result = try await actions.approveAllFeasible(actor: try await actions.actor(session))
        let approved = result.approved.count
        var flash = WebDispatchFlash(
            warning: !result.refused.isEmpty,
            title: "Approved \(approved) ride\(approved == 1 ? "" : "s")."
                + (result.refused.isEmpty ? "" : " \(result.refused.count) could not be approved:"))
        for (ride, why) in result.refused {
            flash.lines.append("\(ride.ref.rawValue) for \(try await actions.riderName(ride.netID)): \(why)")
        }
        throw done(flash, request)
    }

    /// What a refused decision says: the ride changed meanwhile (decided by someone else,
    /// cancelled by the rider), no longer fits, or is not there. Nothing changed.
    private func refusal(_ error: DispatchService.DispatchError, ref: String, doing: String) async throws -> WebDispatchFlash {
        guard let ride = try await actions.ride(ref) else {
            return WebDispatchFlash(warning: true, title: "There is no ride “\(BidiIsolation.isolated(ref))”; nothing changed.")
        }
        let who = "\(ride.ref.rawValue) for \(BidiIsolation.isolated(try await actions.riderName(ride.netID)))"
        switch error {
        case .transition:
            let now =
                switch ride.status {
                case .approved: "is already approved"
                case .rejected: "is already rejected"
                case .cancelled: "was cancelled"
                case .completed: "is completed"
                case .noShow: "was a no-show"
                case .pending: "is still pending"
                }
            return WebDispatchFlash(
                warning: true, title: "\(who) \(now); nothing changed.",
                lines: ["Someone decided it, or the rider cancelled it, since this page was shown."])
        case .doesNotFit(let sentence):
            return WebDispatchFlash(
                warning: true, title: "\(who) was not \(doing): it no longer fits its van's route.",
                lines: [sentence, "Move it on the day board, or reject it with a reason."])
        default:
            return WebDispatchFlash(warning: true, title: "\(who) was not \(doing): \(error.description)")
        }
    }

    /// The ride a form names, as far as a message repeats it (a reference is 7 characters, an id 36).
    static func ref(_ text: String) -> String {
        String(text.prefix(40))
    }

    /// Where an action returns: the page it was sent from (the queue or the alerts), nowhere else.
    static func back(_ text: String) -> String {
        text == "/dispatch/alerts" ? "/dispatch/alerts" : "/dispatch"
    }

    // MARK: Alerts

    @Sendable func alerts(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try WebPages.session(context)
        var page = console.page(
            "dispatch-alerts", title: "Alerts", nav: "alerts", styles: ["dispatch-queue.css"], scripts: ["dispatch-live.js", "dispatch-queue.js"])
        page.values = try await alertsValues(csrf: WebSession.csrfToken(request) ?? "")
        flash(request, into: &page)
        return try await console.pages.render(page, request: request, context: context)
    }

    /// The alerts alone (no layout), for `dispatch-queue.js`.
    @Sendable func alertsPart(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try WebPages.session(context)
        let values = try await alertsValues(csrf: WebSession.csrfToken(request) ?? "")
        return console.pages.html(console.pages.assets.render("dispatch-alerts-part", values), status: .ok, cookies: [])
    }

    private func alertsValues(csrf: String) async throws -> [String: Any] {
        view.alerts(try await actions.alerts(), csrf: csrf, pendingMinutes: Int((actions.settings.pendingAlert / 60).rounded()))
    }

    @Sendable func replay(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await console.pages.form(request)
        guard let eventID = Int64(form["event"]) else {
            throw done(WebDispatchFlash(warning: true, title: "That delivery could not be read; nothing was sent."), request, to: "/dispatch/alerts")
        }
        let count = try await actions.replay(eventID: eventID, actor: try await actions.actor(session))
        throw done(
            count == 0
                ? WebDispatchFlash(warning: true, title: "Event \(eventID) has no parked delivery any more; nothing was sent.")
                : WebDispatchFlash(title: "Sending event \(eventID) to the webhook again."), request, to: "/dispatch/alerts")
    }
}
