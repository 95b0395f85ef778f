import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The rider's account API:
/// - `POST /v1/session` {net_id, password} → 201 {token, token_type, expires_at, must_change_password}
/// - `DELETE /v1/session` → 204 (this token stops working)
/// - `POST /v1/password` {current, new} → 204 (every other session of the rider ends)
/// - `GET /v1/me`, `PATCH /v1/me` {phone?, email?} → the profile
///
/// A token from a temporary password works only for `POST /v1/password` and `DELETE /v1/session`.
struct AccountRoutes: Sendable {
    let auth: RiderAuth
    let clock: ServiceTime

    func register(on router: Router<AppRequestContext>) {
        let v1 = router.group("v1")
        v1.post("session", use: login)
        let anySession = v1.group().add(middleware: auth.authenticator(allowingPasswordChange: true))
        anySession.delete("session", use: logout)
        anySession.post("password", use: changePassword)
        let fullSession = v1.group().add(middleware: auth.authenticator())
        fullSession.get("me", use: me)
        fullSession.patch("me", use: updateMe)
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(LoginRequest.self)
        let login = try await auth.accounts.login(netID: body.netID, password: body.password, from: context.client)
        return try Self.json(
            LoginResponse(token: login.token.rawValue, expiresAt: clock.format(login.expiresAt), mustChangePassword: login.mustChangePassword),
            status: .created, request: request, context: context
        )
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await auth.accounts.logout(try context.requireSession())
        return Response(status: .noContent)
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let body = try await request.decodeJSON(PasswordChangeRequest.self)
        try await auth.accounts.changePassword(session, current: body.current, new: body.new, from: context.client)
        return Response(status: .noContent)
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let profile = try await auth.accounts.profile(session.netID)
        return try Self.json(ProfileResponse(profile), status: .ok, request: request, context: context)
    }

    @Sendable func updateMe(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let patch = try await request.decodeJSON(ProfilePatch.self)
        let profile = try await auth.accounts.updateContact(session.netID, phone: patch.phone, email: patch.email)
        return try Self.json(ProfileResponse(profile), status: .ok, request: request, context: context)
    }

    /// JSON with `status`; never cached, since these answers carry tokens or personal data.
    private static func json(_ value: some Encodable, status: HTTPResponse.Status, request: Request, context: AppRequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(value, from: request, context: context)
        response.status = status
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
