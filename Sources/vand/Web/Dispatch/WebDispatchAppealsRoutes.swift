import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The appeals under the no-show policy (`/dispatch/appeals`): every open case (riders under
/// notice, appeals on hold, suspensions in effect), each beside the rider's record as the
/// service judges it (counted and excluded trips and why, her share), her appeal in her own
/// words, and for an appealed case the decision form (`POST /dispatch/appeals/{id}/decide`:
/// uphold or overturn, with the reasons she reads). One CSRF form answered by a redirect with
/// the console's flash; a refusal shows the page again with the choice and the reasons kept.
struct WebDispatchAppealsRoutes: Sendable {
    let console: WebDispatchRoutes

    /// Longest reasons the office keeps (``NoShowStanding/decide(_:uphold:reason:actor:now:)``).
    static let reasonLimit = 1_000

    /// Adds the appeals page and the decision to the console's routes (dispatchers only).
    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/appeals", use: appeals)
        group.post("dispatch/appeals/:id/decide", use: decide)
    }

    /// The console's services.
    private var actions: WebDispatchActions { console.dispatch }
    /// Whether the flash cookie is Secure (as the session's).
    private var secure: Bool { console.pages.cookies.secureCookies }

    /// What a decide form sent that could not be decided: the case, what was chosen and typed,
    /// and the message for its field.
    struct DecideError {
        /// The case the form decides.
        var id: Int64
        /// "uphold", "overturn" or "" (nothing chosen).
        var decision: String
        /// The reasons as typed.
        var reason: String
        /// `decision` or `reason`.
        var field: String
        /// What to do.
        var message: String
    }

    // MARK: The page

    /// `GET /dispatch/appeals`: the open cases, with the flash of the last decision.
    @Sendable func appeals(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try WebPages.session(context)
        return try await appealsPage(request, context)
    }

    /// The page, with a refused decision's choice, reasons and message on its case's form.
    private func appealsPage(
        _ request: Request, _ context: AppRequestContext, error: DecideError? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let view = WebStandingView(timeZone: actions.timeZone, hotline: console.pages.hotline, now: actions.now)
        var cases: [[String: Any]] = []
        var policy: [String] = []
        for suspension in try await actions.openCases() {
            let standing = try await actions.riderStanding(of: suspension.netID)
            var values = view.suspensionCase(suspension, herself: "the rider")
            values.merge(view.record(standing)) { $1 }
            values["riderName"] = try await actions.riderName(try NetID(suspension.netID))
            values["netID"] = suspension.netID
            values["decideAction"] = "/dispatch/appeals/\(suspension.id)/decide"
            if let error, error.id == suspension.id {
                values["decisionError"] = error.field == "decision" ? error.message : nil
                values["reasonError"] = error.field == "reason" ? error.message : nil
                values["reasonValue"] = error.reason
                values["upholdChosen"] = error.decision == "uphold"
                values["overturnChosen"] = error.decision == "overturn"
            }
            policy = standing.record.policy.sentences
            cases.append(values)
        }
        let appealed = cases.filter { $0["appealed"] as? Bool == true }.count
        var page = console.page(
            "dispatch-appeals", title: (error == nil ? "" : "Error: ") + "Appeals", nav: "appeals", styles: ["dispatch-appeals.css"])
        page.status = status
        page.values = [
            "cases": cases, "hasCases": !cases.isEmpty, "policy": policy, "hasPolicy": !policy.isEmpty,
            "summary": "\(cases.count) open case\(cases.count == 1 ? "" : "s"), \(appealed) waiting for a decision",
            "reasonLimit": String(Self.reasonLimit),
        ]
        if let error {
            let target = error.field == "reason" ? "reason-\(error.id)" : "uphold-\(error.id)"
            page.values["hasErrors"] = true
            page.values["errorList"] = [["target": target, "message": error.message]]
        }
        if let flash = WebDispatchFlash.read(request) {
            page.values.merge(flash.values) { $1 }
            page.cookies.append(WebDispatchFlash.cleared(secure: secure))
        }
        return try await console.pages.render(page, request: request, context: context)
    }

    // MARK: The decision

    /// `POST /dispatch/appeals/{id}/decide`: decides the appeal, or shows why not by the field.
    @Sendable func decide(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await console.pages.form(request)
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
            throw WebErrorPage.notFound("No such case", detail: "No case has this number. Find the case on the appeals page.")
        }
        let decision = String(form["decision"].prefix(20)), reason = form.raw("reason")
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        func refuse(_ field: String, _ message: String) async throws -> Response {
            let error = DecideError(id: id, decision: decision, reason: reason, field: field, message: message)
            return try await appealsPage(request, context, error: error, status: .unprocessableContent)
        }
        guard decision == "uphold" || decision == "overturn" else {
            return try await refuse("decision", "Choose the decision on notice \(id): uphold the suspension, or overturn it")
        }
        guard !trimmed.isEmpty else {
            return try await refuse("reason", "Give the reasons for the decision on notice \(id); the rider reads them")
        }
        guard trimmed.count <= Self.reasonLimit else {
            return try await refuse(
                "reason", "Shorten the reasons to \(Self.reasonLimit) characters (they have \(trimmed.count)); the rider reads them whole")
        }
        let actor = try await actions.actor(session)
        let flash: WebDispatchFlash
        do {
            let decided = try await actions.decide(id, uphold: decision == "uphold", reason: trimmed, actor: actor)
            let name = BidiIsolation.isolated(try await actions.riderName(try NetID(decided.netID)))
            let clock = ServiceTime(timeZone: actions.timeZone)
            flash = WebDispatchFlash(
                title: decided.status == .upheld
                    ? "Notice \(id) upheld for \(name): her rides are suspended \(decided.periodWords(clock)). She is sent the decision."
                    : "Notice \(id) overturned for \(name): she may book as usual. She is sent the decision.")
        } catch let error as StandingError {
            switch error {
            case .text(_, let why):
                return try await refuse("reason", WebBookingForm.sentence(label: "The reasons", reason: why))
            case .unknownCase:
                flash = WebDispatchFlash(warning: true, title: "There is no notice \(id); nothing changed.")
            case .notAppealed(_, let status):
                flash = WebDispatchFlash(
                    warning: true, title: "Notice \(id) is \(status.rawValue), with no appeal waiting for a decision; nothing changed.",
                    lines: ["Someone decided it since this page was shown."])
            default:
                throw error
            }
        }
        throw WebAnswer.redirect("/dispatch/appeals", cookies: [flash.cookie(secure: secure, session: WebSession.token(request) ?? "")])
    }
}
