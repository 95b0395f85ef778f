import Crypto
import Foundation
import Hummingbird
import VanServices

/// What an action did, carried across its POST-redirect-GET in a short-lived cookie
/// (`vand_dispatch_flash`: HttpOnly, SameSite=Strict, path `/dispatch`, one minute) and shown
/// once by the next console page: "Approved K7M-3QX for Ann Rivera", or a warning when nothing
/// changed (the ride was decided meanwhile). A flash is the server's own text, escaped when shown.
///
/// The cookie is signed for the session that made it, as the CSRF token is
/// (HMAC-SHA256 keyed by the HttpOnly session token): a cookie written by anyone else, or
/// carried to another session, is ignored. It needs no key of its own, so any `vand` process
/// behind a load balancer reads what another wrote.
struct WebDispatchFlash: Sendable, Equatable {
    static let cookie = "vand_dispatch_flash"
    /// Longest flash kept (a cookie holds about 4 kB; base64 adds a third).
    static let maxBytes = 2_400

    /// Done as asked (green), or not done (the warning style).
    var warning = false
    /// The heading line.
    var title: String
    /// More lines (an approve-all's rides that did not fit, each with why).
    var lines: [String] = []

    /// The cookie that carries this flash to the next page of the session `session` (its raw token).
    func cookie(secure: Bool, session: String) -> Cookie {
        var text = (warning ? "w" : "o") + title
        for line in lines {
            guard text.utf8.count + line.utf8.count + 1 <= Self.maxBytes else { text += "\n…and more: see the queue"; break }
            text += "\n" + line
        }
        let payload = Data(text.utf8).base64URLEncodedString()
        let value = payload + "." + Data(WebSession.mac(Self.message(payload), session: session)).base64URLEncodedString()
        return Cookie(name: Self.cookie, value: value, maxAge: 60, path: "/dispatch", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The cookie that removes a shown flash.
    static func cleared(secure: Bool) -> Cookie {
        Cookie(name: cookie, value: "", maxAge: 0, path: "/dispatch", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The flash a request carries, if any: only one this session's own console action wrote.
    static func read(_ request: Request) -> WebDispatchFlash? {
        guard let session = WebSession.token(request), let value = request.cookies[cookie]?.value, value.utf8.count <= 4_096 else { return nil }
        let signed = value.split(separator: ".", omittingEmptySubsequences: false)
        guard signed.count == 2, let mac = Data(base64URLEncoded: String(signed[1])),
            WebSession.isValidMAC(mac, of: message(String(signed[0])), session: session),
            let data = Data(base64URLEncoded: String(signed[0])),
            let text = String(data: data, encoding: .utf8), let kind = text.first, kind == "o" || kind == "w"
        else { return nil }
        let parts = text.dropFirst().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let title = parts.first, !title.isEmpty else { return nil }
        return WebDispatchFlash(warning: kind == "w", title: title, lines: Array(parts.dropFirst()))
    }

    /// What the cookie's MAC signs (``WebSession/mac(_:session:)``): its payload, under a label
    /// of its own, so it can never pass for the session's CSRF token.
    private static func message(_ payload: String) -> String { "vand-dispatch-flash\n" + payload }

    /// The template's values: `flashTitle`, `flashLines`, `flashWarning`.
    var values: [String: Any] {
        ["flashTitle": title, "flashLines": lines, "hasFlashLines": !lines.isEmpty, "flashWarning": warning]
    }
}
