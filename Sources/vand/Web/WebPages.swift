import Foundation
import Hummingbird
import Logging
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// A finished answer a web route gives by throwing it (a redirect, a refusal page);
/// ``WebMiddleware`` turns it back into the response.
struct WebAnswer: Error {
    let response: Response

    /// 303 See Other to `location` (POST-redirect-GET).
    static func redirect(_ location: String, cookies: [Cookie] = []) -> WebAnswer {
        var response = Response(status: .seeOther, headers: [.location: location])
        for cookie in cookies { response.setCookie(cookie) }
        return WebAnswer(response: response)
    }
}

/// A page that says what went wrong, thrown by a web route; ``WebMiddleware`` renders it with
/// the navigation of whoever asked (signed in or not).
struct WebErrorPage: Error {
    let status: HTTPResponse.Status
    let title: String
    let detail: String

    /// 404 for an address that names nothing (a mistyped path, another rider's ride).
    static func notFound(_ title: String = "Page not found", detail: String = "There is nothing at this address.") -> WebErrorPage {
        WebErrorPage(status: .notFound, title: title, detail: detail)
    }
}

/// Renders the web app's pages: the page's own template inside the shared layout
/// (skip link, landmarks, navigation with the unread count, live region, footer with the hotline).
struct WebPages: Sendable {
    let assets: WebAssets
    let actions: WebRiderActions
    let cookies: WebSession
    let hotline: String?

    var words: WebTimeWords { WebTimeWords(timeZone: actions.timeZone) }

    /// One page to render.
    struct Page {
        var template: String
        var title: String
        var status: HTTPResponse.Status = .ok
        var values: [String: Any] = [:]
        /// Which navigation item is this page ("home", "now", "book", "rides", "notifications", "service", "profile";
        /// "driver"; the console's "queue", "board", "map", "alerts", "phone", "appeals").
        var nav: String?
        /// Extra scripts beyond `app.js` (file names in `static/`).
        var scripts: [String] = []
        /// Extra stylesheets after `app.css` (file names in `static/`; the driver's pages add `driver.css`, the console's `dispatch.css`).
        var styles: [String] = []
        var cookies: [Cookie] = []
        /// The newest notification counted as read, when this page changes it (else the cookie's).
        var seen: Int64?
    }

    /// The page as an HTML response for this request (signed in or not).
    func render(_ page: Page, request: Request, context: AppRequestContext) async throws -> Response {
        var layout: [String: Any] = [
            "title": page.title, "css": assets.url("app.css"),
            "scripts": (["app.js"] + page.scripts).map(assets.url), "styles": page.styles.map(assets.url),
            "nav": page.nav.map { [$0: true] } ?? [:],
        ]
        var cookies = page.cookies
        var csrf = WebSession.csrfToken(request)
        if csrf == nil {
            let value = WebSession.newCSRFValue()
            cookies.append(self.cookies.csrfCookie(value))
            csrf = value
        }
        layout["csrf"] = csrf
        if let hotline {
            layout["hotline"] = hotline
            layout["hotlineTel"] = Self.tel(hotline)
        }
        if let session = context.session, !session.mustChangePassword, session.role != .rider {
            // A driver's navigation (her run) or a dispatcher's (the console); no rider notifications.
            layout[session.role.rawValue] = true
            layout["staff"] = true
            layout["canSignOut"] = true
            if session.role == .dispatcher {
                // Beside "Appeals": riders under notice, on hold or suspended (cases open today).
                let open = try await actions.openCaseCount()
                layout["openCases"] = open > 0 ? String(open) : nil
            }
        } else if let session = context.session, session.mustChangePassword {
            // Choosing a first password: no "Sign in" link (she is signed in), only the way out.
            layout["choosingPassword"] = true
            layout["canSignOut"] = true
            layout["staffChoosing"] = session.role != .rider
            layout["noHelpLine"] = session.role == .dispatcher  // she is the one riders call
        } else if let session = context.session {
            layout["canSignOut"] = true
            let seen = page.seen ?? WebSession.seen(request)
            let unread = try await actions.notifications(session.netID, after: seen)
            layout["signedIn"] = true
            layout["latest"] = String(unread.last?.id ?? seen)
            layout["unreadCount"] = String(unread.count)
            layout["unreadText"] = unread.isEmpty ? "" : "\(unread.count) unread"
            layout["liveStatuses"] = WebRideRoutes.liveStatuses
        }
        var values = page.values
        values["csrf"] = csrf
        if let hotline {
            values["hotline"] = hotline
            values["hotlineTel"] = Self.tel(hotline)
        }
        layout["body"] = assets.render(page.template, values)
        return html(assets.render("layout", layout), status: page.status, cookies: cookies)
    }

    /// ``errorPage(status:title:detail:)`` for this request: a rider whose cookie holds a live
    /// session keeps the signed-in navigation (and the sign-out button). When the session cannot
    /// be read (the database is down), the plain page.
    func errorPage(_ problem: WebErrorPage, request: Request, context: AppRequestContext) async -> Response {
        var context = context
        if context.session == nil, let token = WebSession.token(request) {
            context.session = try? await actions.session(token: token)
        }
        let plain = errorPage(status: problem.status, title: problem.title, detail: problem.detail)
        guard let session = context.session, !session.mustChangePassword else { return plain }
        var page = Page(template: "error", title: problem.title, status: problem.status)
        page.values = ["heading": problem.title, "detail": problem.detail]
        // Staff keep their own layout and words: the driver's or the console's stylesheet, their home,
        // and no "call the dispatcher" for the dispatcher herself.
        if session.role != .rider {
            page.styles = session.role.webStyles
            page.values["home"] = session.role.webHome
            page.values["homeWords"] = session.role.webHomeWords
            page.values["noHotline"] = session.role == .dispatcher
        }
        return (try? await render(page, request: request, context: context)) ?? plain
    }

    /// A short page that says what went wrong and what to do, without touching the database.
    func errorPage(status: HTTPResponse.Status, title: String, detail: String) -> Response {
        var values: [String: Any] = ["heading": title, "detail": detail]
        var layout: [String: Any] = ["title": title, "css": assets.url("app.css"), "scripts": [assets.url("app.js")], "nav": [String: Bool]()]
        if let hotline {
            values["hotline"] = hotline
            values["hotlineTel"] = Self.tel(hotline)
            layout["hotline"] = hotline
            layout["hotlineTel"] = Self.tel(hotline)
        }
        layout["body"] = assets.render("error", values)
        return html(assets.render("layout", layout), status: status, cookies: [])
    }

    func html(_ text: String, status: HTTPResponse.Status, cookies: [Cookie]) -> Response {
        var response = Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// `tel:` target for a number as people write it ("607-555-0100" → "+6075550100" stays digits).
    static func tel(_ hotline: String) -> String {
        String(hotline.filter { $0.isNumber || $0 == "+" })
    }

    // MARK: Forms

    /// Reads a POSTed form and checks its CSRF token; a missing or wrong token is a 403 page, a
    /// form over ``WebForm/maxBody`` a 413 page.
    func form(_ request: Request) async throws -> WebForm {
        let form: WebForm
        do {
            form = try await WebForm.read(request)
        } catch is WebForm.TooLarge {
            var response = errorPage(
                status: .contentTooLarge, title: "This form is too long",
                detail:
                    "What you sent is longer than any form here takes (\(WebForm.maxBody / 1024) KiB), so nothing was read or changed. Go back, shorten what you typed and send it again."
            )
            // The rest of the body is not read: the connection closes after this page.
            response.headers[.connection] = "close"
            throw WebAnswer(response: response)
        }
        guard WebSession.checkCSRF(form.raw("csrf"), request: request) else {
            throw WebAnswer(
                response: errorPage(
                    status: .forbidden, title: "This form has expired",
                    detail: "For your safety the form could not be accepted. Go back, reload the page and send it again."))
        }
        return form
    }

    /// Field values and errors for a template: `f.<name>.value`, `f.<name>.error`, and the
    /// summary list `errorList` (with `hasErrors`), whose links go to the control of that id, or
    /// to `targets[name]` for a group of controls (its first one: a link must land on something focusable).
    static func formValues(_ values: [String: String], errors: [WebBookingForm.FieldError], targets: [String: String] = [:]) -> [String: Any] {
        var fields: [String: Any] = [:]
        var names = Set(values.keys)
        for error in errors { names.insert(error.field) }
        for name in names {
            var field: [String: Any] = ["value": values[name] ?? ""]
            if let error = errors.first(where: { $0.field == name }) {
                field["error"] = error.message
                field["link"] = error.link
            }
            fields[name] = field
        }
        return [
            "f": fields, "hasErrors": !errors.isEmpty,
            "errorList": errors.map { ["field": $0.field, "target": targets[$0.field] ?? $0.field, "message": $0.message] },
        ]
    }

    // MARK: Sessions

    /// The signed-in rider's session (set by ``WebSignedIn``).
    static func session(_ context: AppRequestContext) throws -> AuthenticatedSession {
        guard let session = context.session else { throw WebAnswer.redirect("/sign-in") }
        return session
    }
}

/// Puts the cookie session in the context; without one, redirects to the sign-in page.
/// A temporary-password session may only reach the password page (and sign out). With a
/// `role`, a session of another role gets the 403 page saying what to use instead (a driver
/// or dispatcher asking for the riders' home page is sent to her own, ``AccountRole/webHome``).
struct WebSignedIn: RouterMiddleware {
    typealias Context = AppRequestContext
    let actions: WebRiderActions
    var allowTemporaryPassword = false
    /// The one role admitted (nil: every role).
    var role: AccountRole? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = WebSession.token(request), var session = try await actions.session(token: token) else {
            throw WebAnswer.redirect("/sign-in")
        }
        if !allowTemporaryPassword {
            do { session = try session.requiringOwnPassword() } catch { throw WebAnswer.redirect("/password") }
        }
        if let role, session.role != role {
            if session.role != .rider, request.method == .get, request.uri.path == "/" { throw WebAnswer.redirect(session.role.webHome) }
            throw AccountError.wrongRole(session.role, needs: role)
        }
        var context = context
        context.session = session
        guard let pages = actions.pages, request.method != .get, request.method != .head else { return try await next(request, context) }
        // As the API's authenticator: a write (sign-out, password, booking, cancelling), done or
        // failed, drops the rider's kept pages before it answers.
        defer { pages.changed(session.netID) }
        return try await next(request, context)
    }
}

/// Turns every error of a web route into an HTML page (never problem+json), and gives every
/// web response the security headers: a CSP with no inline script or style and no other origin.
struct WebMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let pages: WebPages

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
        "font-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'",
    ].joined(separator: "; ")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let answer as WebAnswer {
            response = answer.response
        } catch let problem as WebErrorPage {
            response = await pages.errorPage(problem, request: request, context: context)
        } catch let error as HTTPError {
            response = await pages.errorPage(
                error.status == .notFound
                    ? .notFound()
                    : WebErrorPage(status: error.status, title: error.status.reasonPhrase, detail: error.body ?? "Please go back and try again."),
                request: request, context: context)
        } catch {
            // The one error table (Problem+Errors.swift), as a page instead of problem+json.
            if let problem = Problem(error, hotline: pages.hotline, now: pages.actions.now, timeZone: pages.actions.timeZone) {
                let page = WebErrorPage(status: problem.status, title: problem.title, detail: problem.detail)
                if error is PGError {
                    // The database is not answering: a page that needs no session read.
                    context.logger.warning("database unavailable", metadata: ["error": "\(error)"])
                    response = pages.errorPage(status: page.status, title: page.title, detail: page.detail)
                } else {
                    response = await pages.errorPage(page, request: request, context: context)
                }
                response.headers[.retryAfter] = problem.headers[.retryAfter]
            } else {
                context.logger.error("web request failed", metadata: ["error": "\(error)"])
                let problem = Problem.internalError()
                response = pages.errorPage(status: problem.status, title: problem.title, detail: problem.detail)
            }
        }
        Self.addSecurityHeaders(to: &response)
        return response
    }

    /// Gives `response` the headers every web answer carries.
    static func addSecurityHeaders(to response: inout Response) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        response.headers[.init("X-Frame-Options")!] = "DENY"
        response.headers[.init("Permissions-Policy")!] = "geolocation=(self), camera=(), microphone=()"
        response.headers[.init("Cross-Origin-Opener-Policy")!] = "same-origin"
    }
}
