import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The account service as the routes use it, and the middleware that checks bearer tokens.
struct RiderAuth: Sendable {
    let accounts: AccountService

    /// Middleware that requires a valid bearer token and puts its session in the context.
    /// Unless `allowingPasswordChange`, a temporary-password session is refused with 403.
    func authenticator(allowingPasswordChange: Bool = false) -> BearerAuthenticator {
        BearerAuthenticator(auth: self, allowPasswordChangeSessions: allowingPasswordChange)
    }
}

/// Verifies `Authorization: Bearer <token>` and sets ``AppRequestContext/session``.
struct BearerAuthenticator: RouterMiddleware {
    typealias Context = AppRequestContext
    let auth: RiderAuth
    let allowPasswordChangeSessions: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw Problem.unauthorized(tokenGiven: false) }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw Problem.unauthorized(tokenGiven: false) }
        let session = try await auth.accounts.authenticate(token: String(parts[1]).trimmingCharacters(in: .whitespaces))
        if session.mustChangePassword && !allowPasswordChangeSessions { throw AccountError.passwordChangeRequired }
        var context = context
        context.session = session
        return try await next(request, context)
    }
}
