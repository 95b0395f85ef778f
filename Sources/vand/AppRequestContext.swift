import Foundation
import Hummingbird
import VanServices

/// The request context every route sees: Hummingbird's core storage plus the
/// rider's session once ``BearerAuthenticator`` has verified a token.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The verified session, or nil on routes that need no login.
    var session: AuthenticatedSession?
    /// The connection's peer address (nil in in-process tests).
    let peer: String?
    /// The client for sign-in throttling: the peer, or whom a trusted proxy forwarded for (``ClientAddressing``).
    var client: ClientAddress = .unknown

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }

    /// The API's one encoder (``APIJSON/encoder``).
    var responseEncoder: JSONEncoder { APIJSON.encoder }

    /// The verified session; a 401 on a route that forgot its authenticator.
    func requireSession() throws -> AuthenticatedSession {
        guard let session else { throw Problem.unauthorized(tokenGiven: false) }
        return session
    }
}
