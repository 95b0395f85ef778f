import Crypto
import Foundation
import Hummingbird
import VanServices
import VanScheduler
import VanPostgres

/// The web app's cookies and CSRF tokens.
///
/// - `vand_session`: the same opaque session token `POST /v1/session` hands out, so the
///   session table, its idle expiry, revocation on password change and the lockout rules
///   are exactly the API's. HttpOnly, SameSite=Lax, Path=/, Secure when configured.
/// - `vand_csrf`: a random value for forms shown before sign-in (double-submit cookie).
/// - `vand_seen`: the newest notification the rider has looked at (for the unread count).
///
/// CSRF (synchroniser token without storage): a signed-in form carries
/// HMAC-SHA256(session token, "vand-web-csrf"), which only the holder of the HttpOnly
/// session cookie can know; it is compared in constant time.
struct WebSession: Sendable {
    static let sessionCookie = "vand_session"
    static let csrfCookie = "vand_csrf"
    static let seenCookie = "vand_seen"

    let secureCookies: Bool
    /// How long the session cookie lives (the session's own idle timeout; the server ends it sooner if idle).
    let lifetime: TimeInterval

    /// The raw session token from the cookie, if it looks like one.
    static func token(_ request: Request) -> String? {
        guard let value = request.cookies[sessionCookie]?.value, SessionToken(value) != nil else { return nil }
        return value
    }

    /// The CSRF token forms of this request must carry: derived from the session token when
    /// signed in, else the `vand_csrf` cookie (nil when that cookie is not set yet).
    static func csrfToken(_ request: Request) -> String? {
        if let token = token(request) { return derivedToken(fromSession: token) }
        guard let value = request.cookies[csrfCookie]?.value, value.utf8.count == 43 else { return nil }
        return value
    }

    static func derivedToken(fromSession token: String) -> String {
        Data(mac("vand-web-csrf", session: token)).base64URLEncodedString()
    }

    /// HMAC-SHA256 of `message`, keyed by the session's raw token: what only this session's own
    /// pages can make (its CSRF token, its console's flash). Each use gives its message a label of its own.
    static func mac(_ message: String, session token: String) -> HashedAuthenticationCode<SHA256> {
        HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data(token.utf8)))
    }

    /// Whether `code` is ``mac(_:session:)`` of `message` (constant-time).
    static func isValidMAC(_ code: Data, of message: String, session token: String) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data(message.utf8), using: SymmetricKey(data: Data(token.utf8)))
    }

    /// Whether `submitted` matches the request's CSRF token (constant-time).
    static func checkCSRF(_ submitted: String, request: Request) -> Bool {
        guard let expected = csrfToken(request) else { return false }
        let a = Array(submitted.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A fresh random value for the pre-sign-in CSRF cookie.
    static func newCSRFValue() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64URLEncodedString()
    }

    func sessionCookie(_ token: String) -> Cookie {
        Cookie(name: Self.sessionCookie, value: token, maxAge: Int(lifetime), path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }

    func clearedSessionCookie() -> Cookie {
        Cookie(name: Self.sessionCookie, value: "", maxAge: 0, path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }

    func csrfCookie(_ value: String) -> Cookie {
        Cookie(name: Self.csrfCookie, value: value, path: "/", secure: secureCookies, httpOnly: true, sameSite: .strict)
    }

    func seenCookie(_ id: Int64) -> Cookie {
        Cookie(name: Self.seenCookie, value: String(id), maxAge: 365 * 86_400, path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// The newest notification id the rider has seen (0 when none).
    static func seen(_ request: Request) -> Int64 {
        request.cookies[seenCookie].flatMap { Int64($0.value) }.map { max(0, $0) } ?? 0
    }

}
