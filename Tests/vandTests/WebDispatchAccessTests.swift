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
            for (path, nav) in [
                ("/dispatch", "Queue"), ("/dispatch/board", "Day board"), ("/dispatch/map", "Map"),
                ("/dispatch/alerts", "Alerts"), ("/dispatch/book", "Book for a rider"),
            ] {
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

    /// Issue 33: a new dispatcher choosing her first password was told "before you book", offered
    /// "Sign in" (she is signed in) and told to call the dispatcher; a new driver likewise.
    @Test func aStaffMembersFirstPasswordPageSpeaksToHerRole() async throws {
        let w = try await ConsoleWorld()
        let dispatchers = DispatcherAdministration(riders: w.f.riders)
        let drivers = DriverAdministration(riders: w.f.riders)
        let newDispatcher = try await dispatchers.add(try NetID("dora1"), name: "Dora New", actor: "office")
        let newDriver = try await drivers.add(try NetID("dave1"), name: "Dave New", actor: "office")
        try await w.application().test(.router) { client in
            for (netID, invitation, before) in [("dora1", newDispatcher, "before you open the console"), ("dave1", newDriver, "before your shift")] {
                var jar = WebJar()
                #expect(try await client.webSignIn(netID, invitation.temporaryPassword, jar: &jar).headers[.location] == "/password")
                let page = try await client.web("/password", jar: &jar)
                #expect(page.status == .ok && page.body.contains("Choose your own \(before):"), "\(netID): \(page.body)")
                #expect(!page.body.contains("before you book"), "\(netID)")
                #expect(!page.body.contains(#"href="/sign-in""#), "\(netID): a signed-in person is offered Sign in")
                #expect(page.body.contains(#"action="/sign-out""#), "\(netID): no way to sign out")
                if netID == "dora1" { #expect(!page.body.contains("Call the dispatcher"), "the dispatcher is told to call the dispatcher") }
            }
        }
        await w.f.close()
    }

    /// Issue 33: error pages dropped the staff stylesheet ("Campus VanDriver"), the console's 404
    /// fell back to the rider's narrow layout, and offered the dispatcher "Call the dispatcher".
    @Test func errorPagesKeepTheStaffMembersLayoutAndWords() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            var dee = WebJar(), dana = WebJar()
            _ = try await client.webSignIn("dee1", jar: &dee)
            _ = try await client.webSignIn("dana1", jar: &dana)
            for (path, status) in [("/dispatch/nowhere", HTTPResponse.Status.notFound), ("/driver", .forbidden)] {
                let page = try await client.web(path, jar: &dee, headers: [.accept: "text/html"])
                #expect(page.status == status, "\(path)")
                #expect(page.body.contains("dispatch.css") && page.body.contains(#"<span class="role">Dispatch</span>"#), "\(path): \(page.body)")
                #expect(
                    !page.body.contains("Call the dispatcher") && page.body.contains(#"href="/dispatch">Go to the queue"#), "\(path): \(page.body)")
            }
            let refused = try await client.web("/dispatch", jar: &dana, headers: [.accept: "text/html"])
            #expect(refused.status == .forbidden)
            #expect(refused.body.contains("driver.css") && refused.body.contains(#"<span class="role">Driver</span>"#), "\(refused.body)")
            #expect(refused.body.contains(#"href="/driver">Go to today"#), "\(refused.body)")
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
