import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanPostgres
import VanTestSupport
@testable import vand

@Suite("The dispatcher's console admits dispatchers only")
struct WebDispatchAccessTests {
    @Test func aDispatcherLandsOnTheConsoleAndSeesItsNavigation() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("dee1", jar: &jar).headers[.location] == "/dispatch")
            #expect(try await client.web("/", jar: &jar).headers[.location] == "/dispatch")
            #expect(try await client.web("/sign-in", jar: &jar).headers[.location] == "/dispatch")
            for (path, nav) in [("/dispatch", "Queue"), ("/dispatch/board", "Day board"), ("/dispatch/map", "Map"),
                                ("/dispatch/alerts", "Alerts"), ("/dispatch/book", "Book for a rider")] {
                let page = try await client.web(path, jar: &jar)
                #expect(page.status == .ok, "\(path)")
                #expect(page.body.contains(#"<a href="\#(path)" aria-current="page">\#(nav)</a>"#), "\(path) is not marked current")
                #expect(page.body.contains("dispatch.css") && page.body.contains(#"<span class="role">Dispatch</span>"#))
                // A dispatcher's navigation: no rider's inbox, and no "call the dispatcher".
                #expect(!page.body.contains(#"href="/notifications""#) && !page.body.contains("Call the dispatcher"))
            }
        }
        await w.f.close()
    }

    /// Every console route (read from the router, so a new one is covered at once), asked for
    /// by a rider and by a driver, GET or POST with a valid CSRF token: the 403 page, and no
    /// write.
    @Test func ridersAndDriversAreRefusedEveryConsoleRoute() async throws {
        let w = try await ConsoleWorld()
        let routes = w.routes()
        let console: [(method: HTTPRequest.Method, path: String)] = routes.router.routes.compactMap { route in
            let path = "/" + route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "ANN-0000" : String($0) }.joined(separator: "/")
            return path.hasPrefix("/dispatch") ? (route.method, path) : nil
        }
        #expect(console.count >= 5)
        let before = try await w.count("SELECT count(*) FROM audit_log")
        try await w.f.application(routes).test(.router) { client in
            for netID in ["ann1", "dana1"] {
                var jar = WebJar()
                let signedIn = try await client.webSignIn(netID, jar: &jar)
                #expect(signedIn.status == .seeOther)
                let csrf = try #require(jar.cookies["vand_csrf"])
                for (method, path) in console {
                    let form: [(String, String)]? = method == .post ? [("csrf", csrf)] : nil
                    guard method == .get || method == .post else { continue }
                    let answer = try await client.web(path, form: form, jar: &jar, headers: [.accept: "text/html"])
                    #expect(answer.status == .forbidden, "\(netID): \(method) \(path) answered \(answer.status)")
                    #expect(answer.body.contains("Only a dispatcher uses this."), "\(netID): \(method) \(path)")
                }
            }
        }
        #expect(try await w.count("SELECT count(*) FROM audit_log") == before)
        await w.f.close()
    }

    @Test func theConsoleRecordsTheDispatchersNameAndNetID() {
        #expect(WebDispatchActions.actor(name: "Dee Dispatcher", netID: try! NetID("dee1")) == ConsoleWorld.dispatcherActor)
        #expect(WebDispatchActions.actor(name: "  ", netID: try! NetID("dee1")) == "dee1")
        #expect(WebDispatchActions.actor(name: String(repeating: "x", count: 100), netID: try! NetID("dee1")).count == 64)
    }
}
