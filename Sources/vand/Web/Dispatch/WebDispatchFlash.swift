import Foundation
import Hummingbird

/// What an action did, carried across its POST-redirect-GET in a short-lived cookie
/// (`vand_dispatch_flash`: HttpOnly, SameSite=Strict, path `/dispatch`, one minute) and shown
/// once by the next console page: "Approved K7M-3QX for Ann Rivera", or a warning when nothing
/// changed (the ride was decided meanwhile). A flash is the server's own text, escaped when shown.
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

    /// The cookie that carries this flash to the next page.
    func cookie(secure: Bool) -> Cookie {
        var text = (warning ? "w" : "o") + title
        for line in lines {
            guard text.utf8.count + line.utf8.count + 1 <= Self.maxBytes else { text += "\n…and more: see the queue"; break }
            text += "\n" + line
        }
        let value = Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return Cookie(name: Self.cookie, value: value, maxAge: 60, path: "/dispatch", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The cookie that removes a shown flash.
    static func cleared(secure: Bool) -> Cookie {
        Cookie(name: cookie, value: "", maxAge: 0, path: "/dispatch", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The flash a request carries, if any.
    static func read(_ request: Request) -> WebDispatchFlash? {
        guard var value = request.cookies[cookie]?.value, !value.isEmpty, value.utf8.count <= 4_096 else { return nil }
        value = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        value += String(repeating: "=", count: (4 - value.count % 4) % 4)
        guard let data = Data(base64Encoded: value), let text = String(data: data, encoding: .utf8), let kind = text.first, kind == "o" || kind == "w" else { return nil }
        let parts = text.dropFirst().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let title = parts.first, !title.isEmpty else { return nil }
        return WebDispatchFlash(warning: kind == "w", title: title, lines: Array(parts.dropFirst()))
    }

    /// The template's values: `flashTitle`, `flashLines`, `flashWarning`.
    var values: [String: Any] {
        ["flashTitle": title, "flashLines": lines, "hasFlashLines": !lines.isEmpty, "flashWarning": warning]
    }
}
