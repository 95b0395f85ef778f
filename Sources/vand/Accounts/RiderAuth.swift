import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The account service as the routes use it, and the middleware that checks bearer tokens.
struct RiderAuth: Sendable {
    let accounts: AccountService
    /// Ride pages kept for riders: a rider's request that may write (any method but GET and
    /// HEAD) drops theirs when it ends, so they read what they wrote on this node at once.
    var pages: RiderReadCache<ByteBuffer>? = nil

    /// Middleware that requires a valid bearer token and puts its session in the context.
    /// Unless `allowingPasswordChange`, a temporary-password session is refused with 403; with a
    /// `role`, a session of another role is refused with 403 (``AccountError/wrongRole(_:needs:)``).
    func authenticator(allowingPasswordChange: Bool = false, role: AccountRole? = nil) -> BearerAuthenticator {
        BearerAuthenticator(auth: self, allowPasswordChangeSessions: allowingPasswordChange, role: role)
    }
}

/// Verifies `Authorization: Bearer <token>` and sets ``AppRequestContext/session``.
struct BearerAuthenticator: RouterMiddleware {
    typealias Context = AppRequestContext
    let auth: RiderAuth
    let allowPasswordChangeSessions: Bool
    /// The one role admitted (nil: every role).
    var role: AccountRole? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var session = try await auth.accounts.authenticate(token: try Self.token(request))
        if !allowPasswordChangeSessions { session = try session.requiringOwnPassword() }
        if let role { session = try session.requiring(role) }
        var context = context
        context.session = session
        guard let pages = auth.pages, request.method != .get, request.method != .head else { return try await next(request, context) }
        // Success or failure alike: a failed request may still have written.
        defer { pages.changed(session.netID) }
        return try await next(request, context)
    }

    /// The token of `Authorization: Bearer <token>`; a 401 without one.
    static func token(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization] else { throw Problem.unauthorized(tokenGiven: false) }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw Problem.unauthorized(tokenGiven: false) }
        let token = String(parts[1])
        return token.hasVisibleASCIIEnds ? token : token.trimmingCharacters(in: .whitespaces)
    }
}

extension RiderAuth {
    /// The check of a request's bearer token, for a route that checks it in the same statement
    /// as its read (as ``BearerAuthenticator`` would refuse it: 401 without a token of ours).
    func sessionCheck(_ request: Request) throws -> SessionCheck {
        try accounts.sessionCheck(token: try BearerAuthenticator.token(request))
    }

    /// What ``BearerAuthenticator`` does for a route without password-change sessions, with a
    /// check made already: the session, or the 401 or 403 it would answer.
    func authenticate(_ check: SessionCheck, role: AccountRole? = nil) async throws -> AuthenticatedSession {
        let session = try await accounts.authenticate(check).requiringOwnPassword()
        return try role.map { try session.requiring($0) } ?? session
    }
}
