import Foundation
import Hummingbird
import VanDomain
import VanServices

/// Turns account refusals into problems: the hotline to call comes from configuration.
struct RiderAuth: Sendable {
    let accounts: AccountService
    /// The office's number, shown when a rider must call.
    let hotline: String?

    /// The problem for `error`, as of now.
    func problem(_ error: AccountError) -> Problem {
        Problem.account(error, hotline: hotline, now: accounts.clock.now)
    }

    /// Runs `body`, answering account refusals with their problem.
    func mapping<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as AccountError {
            throw problem(error)
        }
    }

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
        let session = try await auth.mapping { try await auth.accounts.authenticate(token: String(parts[1]).trimmingCharacters(in: .whitespaces)) }
        if session.mustChangePassword && !allowPasswordChangeSessions { throw auth.problem(.passwordChangeRequired) }
        var context = context
        context.session = session
        return try await next(request, context)
    }
}
