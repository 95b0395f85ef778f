import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// Signing in and out, the password change a temporary password forces, and the profile.
struct WebAccountRoutes: Sendable {
    let pages: WebPages
    var actions: WebRiderActions { pages.actions }

    func register(public group: RouterGroup<AppRequestContext>, anySession: RouterGroup<AppRequestContext>, signedIn: RouterGroup<AppRequestContext>)
    {
        group.get("sign-in", use: signInPage)
        group.post("sign-in", use: signIn)
        anySession.post("sign-out", use: signOut)
        anySession.get("password", use: passwordPage)
        anySession.post("password", use: changePassword)
        signedIn.get("profile", use: profilePage)
        signedIn.post("profile", use: updateProfile)
    }

    // MARK: Sign in and out

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let session = context.session { throw WebAnswer.redirect(session.mustChangePassword ? "/password" : session.role.webHome) }
        let done = request.uri.queryParameters["done"].map(String.init)
        return try await signInForm(
            request, context, values: [:], errors: [],
            flash: done == "signed-out" ? "You are signed out." : nil)
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await pages.form(request)
        let netID = form["net_id"], password = form.raw("password")
        var errors: [WebBookingForm.FieldError] = []
        if netID.isEmpty { errors.append(.init(field: "net_id", message: "Enter your net ID")) }
        if password.isEmpty { errors.append(.init(field: "password", message: "Enter your password")) }
        guard errors.isEmpty else {
            return try await signInForm(request, context, values: ["net_id": netID], errors: errors, status: .unprocessableContent)
        }
        do {
            let login = try await actions.signIn(netID: netID, password: password, from: context.client)
            // The cookie is replaced: the session it held ends with it, not left live.
            if let previous = context.session { try await actions.signOut(previous) }
            // A driver lands on her run, a dispatcher on the console, a rider on her home page.
            let home =
                login.mustChangePassword
                ? "/password"
                : try await actions.session(token: login.token.rawValue)?.role.webHome ?? "/"
            throw WebAnswer.redirect(
                home,
                cookies: [
                    pages.cookies.sessionCookie(login.token.rawValue), pages.cookies.seenCookie(0),
                ])
        } catch let error as AccountError {
            // Worded by the one error table (Problem+Errors.swift), shown as a form answers.
            let problem = Problem.account(error, hotline: pages.hotline, now: actions.now)
            switch error {
            case .invalidCredentials:
                errors = [.init(field: "password", message: problem.detail)]
                return try await signInForm(request, context, values: ["net_id": netID], errors: errors, status: problem.status)
            case .invalid(let problems):
                errors = problems.map {
                    .init(
                        field: $0.field == "net_id" || $0.field == "netID" ? "net_id" : "password",
                        message: WebBookingForm.sentence(label: $0.field == "password" ? "Password" : "Net ID", reason: $0.reason))
                }
                return try await signInForm(request, context, values: ["net_id": netID], errors: errors, status: .unprocessableContent)
            case .lockedOut, .disabled, .temporaryPasswordExpired:
                return try await signInForm(
                    request, context, values: ["net_id": netID], errors: [], status: problem.status,
                    notice: ["title": problem.title, "text": problem.detail])
            default:
                throw error
            }
        }
    }

    private func signInForm(
        _ request: Request, _ context: AppRequestContext, values: [String: String], errors: [WebBookingForm.FieldError],
        status: HTTPResponse.Status = .ok, flash: String? = nil, notice: [String: String]? = nil
    ) async throws -> Response {
        var page = WebPages.Page(template: "sign-in", title: errors.isEmpty ? "Sign in" : "Error: Sign in", status: status)
        page.values = WebPages.formValues(values.merging(["password": ""]) { a, _ in a }, errors: errors)
        page.values["flash"] = flash
        page.values["notice"] = notice
        return try await pages.render(page, request: request, context: context)
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await pages.form(request)
        try await actions.signOut(try WebPages.session(context))
        throw WebAnswer.redirect("/sign-in?done=signed-out", cookies: [pages.cookies.clearedSessionCookie()])
    }

    // MARK: Password

    @Sendable func passwordPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await passwordForm(request, context, errors: [])
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await pages.form(request)
        let current = form.raw("current"), new = form.raw("new"), confirm = form.raw("confirm")
        var errors: [WebBookingForm.FieldError] = []
        if current.isEmpty {
            errors.append(
                .init(
                    field: "current",
                    message: session.mustChangePassword ? "Enter the temporary password you were given" : "Enter your current password"))
        }
        if new.isEmpty { errors.append(.init(field: "new", message: "Enter a new password")) }
        if !new.isEmpty, confirm != new { errors.append(.init(field: "confirm", message: "The two new passwords are not the same; type it again")) }
        guard errors.isEmpty else { return try await passwordForm(request, context, errors: errors, status: .unprocessableContent) }
        do {
            try await actions.changePassword(session, current: current, new: new, from: context.client)
        } catch let error as AccountError {
            switch error {
            case .invalid(let problems):
                let labels = ["current": "Current password", "new": "New password"]
                errors = problems.map {
                    .init(
                        field: $0.field == "current" ? "current" : "new",
                        message: WebBookingForm.sentence(label: labels[$0.field] ?? "New password", reason: $0.reason))
                }
                return try await passwordForm(request, context, errors: errors, status: .unprocessableContent)
            case .lockedOut:
                let problem = Problem.account(error, hotline: pages.hotline, now: actions.now)
                return try await passwordForm(
                    request, context, errors: [], status: problem.status, notice: ["title": problem.title, "text": problem.detail])
            default:
                throw error
            }
        }
        throw WebAnswer.redirect("/?done=password")
    }

    private func passwordForm(
        _ request: Request, _ context: AppRequestContext, errors: [WebBookingForm.FieldError],
        status: HTTPResponse.Status = .ok, notice: [String: String]? = nil
    ) async throws -> Response {
        let temporary = context.session?.mustChangePassword ?? false
        var page = WebPages.Page(
            template: "password", title: (errors.isEmpty ? "" : "Error: ") + (temporary ? "Choose your password" : "Change your password"),
            status: status, nav: temporary ? nil : "profile")
        // Passwords are never sent back into the page.
        page.values = WebPages.formValues(["current": "", "new": "", "confirm": ""], errors: errors)
        page.values["temporary"] = temporary
        // What the first password comes before: a rider's booking, a driver's run, a dispatcher's console.
        page.values["before"] =
            switch context.session?.role {
            case .driver: "before your shift"
            case .dispatcher: "before you open the console"
            default: "before you book"
            }
        page.values["notice"] = notice
        return try await pages.render(page, request: request, context: context)
    }

    // MARK: Profile

    @Sendable func profilePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let profile = try await actions.profile(session.netID)
        let saved = request.uri.queryParameters["done"] == "saved"
        return try await profileForm(
            request, context, profile: profile,
            values: ["phone": profile.rider.phone?.rawValue ?? "", "email": profile.rider.email?.rawValue ?? ""],
            errors: [], flash: saved ? "Your contact details are saved." : nil)
    }

    @Sendable func updateProfile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await pages.form(request)
        let phoneText = form["phone"], emailText = form["email"]
        var errors: [WebBookingForm.FieldError] = []
        var phone: PhoneNumber?, email: EmailAddress?
        do throws(ValidationError) { phone = phoneText.isEmpty ? nil : try PhoneNumber(phoneText) } catch {
            errors.append(.init(field: "phone", message: WebBookingForm.sentence(label: "Phone number", reason: error.reason)))
        }
        do throws(ValidationError) { email = emailText.isEmpty ? nil : try EmailAddress(emailText) } catch {
            errors.append(.init(field: "email", message: WebBookingForm.sentence(label: "E-mail address", reason: error.reason)))
        }
        guard errors.isEmpty else {
            return try await profileForm(
                request, context, profile: try await actions.profile(session.netID),
                values: ["phone": phoneText, "email": emailText], errors: errors, status: .unprocessableContent)
        }
        _ = try await actions.updateContact(session.netID, phone: phone, email: email)
        throw WebAnswer.redirect("/profile?done=saved")
    }

    private func profileForm(
        _ request: Request, _ context: AppRequestContext, profile: AccountService.Profile, values: [String: String],
        errors: [WebBookingForm.FieldError], status: HTTPResponse.Status = .ok, flash: String? = nil
    ) async throws -> Response {
        var page = WebPages.Page(template: "profile", title: (errors.isEmpty ? "" : "Error: ") + "Your profile", status: status, nav: "profile")
        page.values = WebPages.formValues(values, errors: errors)
        page.values["netID"] = profile.rider.netID.rawValue
        page.values["name"] = profile.rider.name
        page.values["eligible"] = profile.eligibility.isEligible
        page.values["eligibleUntil"] = profile.eligibility.until?.description
        page.values["flash"] = flash
        return try await pages.render(page, request: request, context: context)
    }
}
