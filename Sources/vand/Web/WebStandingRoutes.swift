import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The rider's record under the no-show policy (`/standing`, "Your record"): where she stands,
/// each missed trip counted or excluded and why, her notices with her appeal and the office's
/// decision, the policy, and the appeal form while a notice can be appealed
/// (`POST /standing/appeal`: one CSRF form, answered by a redirect; a refusal shows the form
/// again with her words kept and the reason next to the field). A rider sees only her own.
struct WebStandingRoutes: Sendable {
    let pages: WebPages
    var actions: WebRiderActions { pages.actions }

    /// Longest appeal the office keeps (``NoShowStanding/appeal(_:text:filedBy:now:)``).
    static let appealLimit = 2_000

    /// Adds the record page and the appeal to the riders' routes (a rider's session only).
    func register(signedIn: RouterGroup<AppRequestContext>) {
        signedIn.get("standing", use: page)
        signedIn.post("standing/appeal", use: appeal)
    }

    /// `GET /standing`: her record, with the confirmation after an appeal.
    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let appealed = request.uri.queryParameters["done"] == "appealed"
        return try await recordPage(
            request, context, text: "", errors: [],
            flash: appealed ? "Your appeal is filed. The suspension is on hold until the office decides, and you may book rides as usual." : nil)
    }

    /// `POST /standing/appeal`: files her appeal, or shows why not with her words kept.
    @Sendable func appeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await pages.form(request)
        let text = form.raw("appeal")
        func refuse(_ message: String, _ status: HTTPResponse.Status) async throws -> Response {
            try await recordPage(request, context, text: text, errors: [.init(field: "appeal", message: message)], status: status)
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            return try await refuse("Write why these trips should not count: your appeal is empty", .unprocessableContent)
        }
        guard trimmed.count <= Self.appealLimit else {
            return try await refuse(
                "Shorten your appeal to \(Self.appealLimit) characters (it has \(trimmed.count)); the office reads it whole", .unprocessableContent)
        }
        do {
            try await actions.appeal(session.netID, text: trimmed)
        } catch let error as StandingError {
            switch error {
            case .text(_, let reason):
                return try await refuse(WebBookingForm.sentence(label: "Your appeal", reason: reason), .unprocessableContent)
            case .appealClosed(_, let appealBy):
                let clock = ServiceTime(timeZone: actions.timeZone)
                return try await refuse(
                    "The time to appeal ended on \(Suspension.day(appealBy, clock)), so nothing was filed; \(call) to be heard", .conflict)
            case .nothingToAppeal:
                return try await refuse("You have no notice to appeal now, so nothing was filed; \(call) if you think this is wrong", .conflict)
            default:
                throw error
            }
        }
        throw WebAnswer.redirect("/standing?done=appealed")
    }

    /// "call the office at 607-555-0100" (or "call the office" without a hotline).
    private var call: String { pages.hotline.map { "call the office at \($0)" } ?? "call the office" }

    /// The record page, with the appeal form's `text` and its errors.
    private func recordPage(
        _ request: Request, _ context: AppRequestContext, text: String, errors: [WebBookingForm.FieldError],
        status: HTTPResponse.Status = .ok, flash: String? = nil
    ) async throws -> Response {
        let session = try WebPages.session(context)
        let standing = try await actions.riderStanding(session.netID)
        let view = WebStandingView(timeZone: actions.timeZone, hotline: pages.hotline, now: actions.now)
        var page = WebPages.Page(template: "standing", title: (errors.isEmpty ? "" : "Error: ") + "Your record", status: status)
        page.values = WebPages.formValues(["appeal": text], errors: errors)
        page.values.merge(view.record(standing)) { $1 }
        let cases = standing.cases.map { view.suspensionCase($0, herself: "you") }
        page.values["cases"] = cases
        page.values["hasCases"] = !cases.isEmpty
        let open = standing.cases.first { $0.canAppeal(on: view.today) }
        // The form while a notice can be appealed, and again with its error when it could not be filed.
        page.values["appealForm"] = open != nil || !errors.isEmpty
        page.values["appealBy"] = open.map { Suspension.day($0.appealBy, view.letters.clock) }
        page.values["appealLimit"] = String(Self.appealLimit)
        page.values["flash"] = flash
        return try await pages.render(page, request: request, context: context)
    }
}
