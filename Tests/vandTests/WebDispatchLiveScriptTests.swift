import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanTestSupport
@testable import vand

/// The console's live pages share `dispatch-live.js`: each loads it before its own script, the
/// CSP lets it run (a same-origin file), and the parts it fetches answer a session that is gone
/// with the redirect (or 403) it reads as "the session ended".
@Suite("The console's live pages: one shared script")
struct WebDispatchLiveScriptTests {
    @Test func everyLivePageLoadsTheSharedScriptBeforeItsOwn() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            for (path, own) in [
                ("/dispatch", "dispatch-queue.js"), ("/dispatch/alerts", "dispatch-queue.js"),
                ("/dispatch/board", "dispatch-board.js"), ("/dispatch/map", "dispatch-map.js"),
            ] {
                let page = try await client.web(path, jar: &jar)
                #expect(page.status == .ok, "\(path)")
                let scripts = page.body.matches(of: #/<script src="/static/([^"?]+)\?v=[^"]+" defer>/#).map { String($0.output.1) }
                #expect(scripts == ["app.js", "dispatch-live.js", own], "\(path) loads \(scripts)")
                #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true, "\(path)")
            }
            let script = try await client.web("/static/dispatch-live.js", jar: &jar)
            #expect(script.status == .ok && script.body.contains("window.vandLive = function"))
            #expect(script.headers[.contentType]?.contains("javascript") == true)
        }
        await w.f.close()
    }

    @Test func aPartAnswersASessionThatIsGoneWithARedirectToSignInAndARiderWith403() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            let parts = ["/dispatch/queue/part", "/dispatch/alerts/part", "/dispatch/board/part", "/dispatch/map/part"]
            var dispatcher = WebJar()
            _ = try await client.webSignIn("dee1", jar: &dispatcher)
            for part in parts { #expect(try await client.web(part, jar: &dispatcher).status == .ok, "\(part)") }
            let page = try await client.web("/dispatch", jar: &dispatcher)
            // Her cookie as another tab still holds it after she signs out here.
            var stale = dispatcher
            #expect(try await client.web("/sign-out", form: [("csrf", page.csrf ?? "")], jar: &dispatcher).status == .seeOther)
            var rider = WebJar()
            _ = try await client.webSignIn("ann1", jar: &rider)
            for part in parts {
                let gone = try await client.web(part, jar: &stale)
                #expect(
                    gone.status == .seeOther && gone.headers[.location]?.hasPrefix("/sign-in") == true,
                    "\(part) answered a signed-out dispatcher \(gone.status) \(gone.headers[.location] ?? "")")
                #expect(try await client.web(part, jar: &rider).status == .forbidden, "\(part)")
            }
        }
        await w.f.close()
    }
}
