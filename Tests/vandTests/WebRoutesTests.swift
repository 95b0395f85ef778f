import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanScheduler
import VanPostgres
import VanTestSupport
@testable import vand

/// A browser's cookie jar for in-process requests.
struct WebJar {
    var cookies: [String: String] = [:]
    /// Every Set-Cookie line of the last answer, by cookie name.
    var lastSetCookies: [String: String] = [:]

    mutating func take(_ headers: HTTPFields) {
        lastSetCookies = [:]
        for line in headers[values: .setCookie] {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            lastSetCookies[name] = line
            if value.isEmpty || line.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
    }

    var header: String { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
}

/// An answer from a web route.
struct WebAnswerSeen {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: String

    /// The CSRF token of the page's first form.
    var csrf: String? {
        guard let range = body.range(of: #"name="csrf" value="([^"]+)""#, options: .regularExpression) else { return nil }
        return String(body[range].dropFirst(#"name="csrf" value=""#.count).dropLast())
    }
}

extension TestClientProtocol {
    /// GETs `uri`, or POSTs `form` (url-encoded) to it, with and into `jar`'s cookies.
    func web(_ uri: String, form: [(String, String)]? = nil, jar: inout WebJar, headers extra: HTTPFields = [:]) async throws -> WebAnswerSeen {
        var headers = extra
        if !jar.cookies.isEmpty { headers[.cookie] = jar.header }
        var body: ByteBuffer?
        if let form {
            headers[.contentType] = "application/x-www-form-urlencoded"
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            body = ByteBuffer(string: form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&"))
        }
        let answer = try await execute(uri: uri, method: form == nil ? .get : .post, headers: headers, body: body) { response in
            WebAnswerSeen(status: response.status, headers: response.headers, body: String(buffer: response.body))
        }
        jar.take(answer.headers)
        return answer
    }

    /// Signs `netID` in through the web form; the jar then holds the session cookie.
    func webSignIn(_ netID: String, _ password: String = "correct horse battery", jar: inout WebJar) async throws -> WebAnswerSeen {
        let page = try await web("/sign-in", jar: &jar)
        return try await web("/sign-in", form: [("csrf", page.csrf ?? ""), ("net_id", netID), ("password", password)], jar: &jar)
    }
}

@Suite("The rider web app's HTML routes on the real router and a real database")
struct WebRoutesTests {
    /// Monday 2026-11-30 15:00 in New York; the world's clock stands at Sunday 07:00.
    static func bookForm(_ csrf: String, dropoff: String = "Davenport", time: String = "15:00", note: String = "") -> [(String, String)] {
        [("csrf", csrf), ("pickup", "SCL"), ("dropoff", dropoff), ("date", "2026-11-30"), ("time", time), ("companions", "0"), ("note", note)]
    }

    @Test func theSignInPageIsHTMLWithStrictSecurityHeaders() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            let page = try await client.web("/sign-in", jar: &jar)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe-inline"))
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[.init("Referrer-Policy")!] == "same-origin")
            #expect(page.body.contains("<h1>Sign in</h1>") && page.body.contains(#"<main id="main""#) && page.body.contains(##"href="#main""##))
            #expect(!page.body.contains(" style=") && !page.body.contains("<script>"))
            let csrfCookie = try #require(jar.lastSetCookies["vand_csrf"])
            #expect(csrfCookie.contains("HttpOnly") && csrfCookie.contains("SameSite=Strict"))
            #expect(page.csrf == jar.cookies["vand_csrf"])
        }
        await w.f.close()
    }

    @Test func signingInSetsAnHttpOnlyLaxSessionCookieOnTheSessionTable() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            let answer = try await client.webSignIn("ann1", jar: &jar)
            #expect(answer.status == .seeOther)
            #expect(answer.headers[.location] == "/")
            let cookie = try #require(jar.lastSetCookies["vand_session"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/") && !cookie.contains("Secure"))
            // The cookie is a session token like the API's: it works as a bearer token too.
            let token = try #require(jar.cookies["vand_session"])
            #expect(try await client.get("/v1/me", token).status == .ok)
            let home = try await client.web("/", jar: &jar)
            #expect(home.status == .ok && home.body.contains("My rides"))
            // Signing out ends the session in the table.
            let signedOut = try await client.web("/sign-out", form: [("csrf", home.csrf ?? "")], jar: &jar)
            #expect(signedOut.status == .seeOther && signedOut.headers[.location] == "/sign-in?done=signed-out")
            #expect(try await client.get("/v1/me", token).status == .unauthorized)
        }
        await w.f.close()
    }

    @Test func cookiesAreSecureWhenConfigured() async throws {
        let w = try await BookingWorld()
        var configuration = w.f.configuration
        configuration.web.secureCookies = true
        let router = buildRoutes(configuration: configuration, database: w.f.database, clock: w.f.clock)
        try await w.f.application(router).test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            #expect(jar.lastSetCookies["vand_session"]?.contains("Secure") == true)
        }
        await w.f.close()
    }

    @Test func wrongPasswordKeepsTheNetIDAndLinksTheError() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            let answer = try await client.webSignIn("ann1", "wrong password!", jar: &jar)
            #expect(answer.status == .unauthorized)
            #expect(answer.body.contains("error-summary") && answer.body.contains(##"href="#password""##))
            #expect(answer.body.contains(#"value="ann1""#))
            #expect(answer.body.contains(#"aria-describedby="password-error""#) && answer.body.contains(#"aria-invalid="true""#))
            #expect(jar.cookies["vand_session"] == nil)
        }
        await w.f.close()
    }

    @Test func pagesNeedASignInAndATemporaryPasswordMustBeChangedFirst() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            for path in ["/", "/book", "/rides", "/notifications", "/profile"] {
                let answer = try await client.web(path, jar: &jar)
                #expect(answer.status == .seeOther && answer.headers[.location] == "/sign-in", "\(path)")
            }
            let invitation = try await w.f.riders.invite(try NetID("newbie1"), actor: "test")
            let signIn = try await client.webSignIn("newbie1", invitation.temporaryPassword, jar: &jar)
            #expect(signIn.headers[.location] == "/password")
            #expect(try await client.web("/book", jar: &jar).headers[.location] == "/password")
            let page = try await client.web("/password", jar: &jar)
            #expect(page.status == .ok && page.body.contains("Choose your password"))
            let changed = try await client.web(
                "/password",
                form: [
                    ("csrf", page.csrf ?? ""), ("current", invitation.temporaryPassword), ("new", "my own password 1"),
                    ("confirm", "my own password 1"),
                ], jar: &jar)
            #expect(changed.status == .seeOther && changed.headers[.location] == "/?done=password")
            // Signed in for good now; not on the whitelist, so the form says whom to call.
            let book = try await client.web("/book", jar: &jar)
            #expect(book.status == .forbidden && book.body.contains("You are not cleared to book rides"))
        }
        await w.f.close()
    }

    @Test func aFormWithoutItsCSRFTokenIsRefusedAndBooksNothing() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let forged = try await client.web("/book", form: Self.bookForm("forged-token"), jar: &jar)
            #expect(forged.status == .forbidden)
            #expect(forged.body.contains("This form has expired"))
            let missing = try await client.web("/book", form: Array(Self.bookForm("").dropFirst()), jar: &jar)
            #expect(missing.status == .forbidden)
            #expect(try await w.rideCount() == 0)
            // Signing in needs the pre-session token too (no login CSRF).
            var fresh = WebJar()
            let noCookie = try await client.web(
                "/sign-in", form: [("csrf", "x"), ("net_id", "ann1"), ("password", "correct horse battery")], jar: &fresh)
            #expect(noCookie.status == .forbidden && fresh.cookies["vand_session"] == nil)
        }
        await w.f.close()
    }

    /// Signing in while the cookie holds a live session replaces the cookie and ends that session.
    @Test func signingInAgainEndsTheSessionTheCookieHeld() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let first = try #require(jar.cookies[WebSession.sessionCookie])
            #expect(try await client.get("/v1/me", first).status == .ok)
            let again = try await client.web(
                "/sign-in",
                form: [
                    ("csrf", WebSession.derivedToken(fromSession: first)), ("net_id", "bob2"),
                    ("password", "correct horse battery"),
                ], jar: &jar)
            #expect(again.status == .seeOther)
            let second = try #require(jar.cookies[WebSession.sessionCookie])
            #expect(second != first)
            #expect(try await client.get("/v1/me", first).status == .unauthorized)
            #expect(try await client.get("/v1/me", second).status == .ok)
            // A wrong password ends nothing.
            _ = try await client.web(
                "/sign-in",
                form: [
                    ("csrf", WebSession.derivedToken(fromSession: second)), ("net_id", "bob2"),
                    ("password", "not the password"),
                ], jar: &jar)
            #expect(try await client.get("/v1/me", second).status == .ok)
        }
        await w.f.close()
    }

    @Test func bookingErrorsAreSummarisedByTheirFieldsAndKeepWhatWasTyped() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let answer = try await client.web(
                "/book", form: Self.bookForm(page.csrf ?? "", dropoff: "Nowhere Hall", time: "", note: "Side door <please>"), jar: &jar)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.body.contains("<title>Error: Book ahead – Campus Van</title>"))
            #expect(answer.body.contains(##"<a href="#time">Enter the pick-up time</a>"##))
            #expect(answer.body.contains(##"<a href="#dropoff">Destination: &#39;Nowhere Hall&#39; is not a known place"##))
            #expect(answer.body.contains(#"aria-describedby="dropoff-hint dropoff-error""#))
            #expect(answer.body.contains(#"value="Nowhere Hall""#) && answer.body.contains(#"value="SCL""#))
            #expect(answer.body.contains("Side door &lt;please&gt;</textarea>"))
            #expect(try await w.rideCount() == 0)
        }
        await w.f.close()
    }

    @Test func aBookingRedirectsToItsPendingRideInWords() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let booked = try await client.web("/book", form: Self.bookForm(page.csrf ?? ""), jar: &jar)
            #expect(booked.status == .seeOther)
            let location = try #require(booked.headers[.location])
            #expect(location.hasPrefix("/rides/") && location.hasSuffix("?done=booked"))
            let ride = try await client.web(location, jar: &jar)
            #expect(ride.status == .ok)
            #expect(ride.body.contains("Waiting for approval"))
            #expect(ride.body.contains("3:00 PM tomorrow"))
            #expect(ride.body.contains("Sterling Chemistry Lab") && ride.body.contains("Davenport College"))
            // The reference, shown as typed and spelled symbol by symbol for screen readers.
            let id = try #require(UUID(uuidString: String(location.dropFirst("/rides/".count).prefix(36))))
            let ref = try await w.f.database.pool.withConnection { conn in
                try RideRef(validating: try conn.query("SELECT ref FROM rides WHERE id = \(id)").first!.decode(String.self, at: 0))
            }
            #expect(
                ride.body.contains(
                    #"<span class="ref" aria-hidden="true">\#(ref.rawValue)</span><span class="visually-hidden">\#(ref.spelled)</span>"#))
            let list = try await client.web("/rides", jar: &jar)
            #expect(list.body.contains(String(location.dropFirst("/rides/".count).prefix(36))))
            #expect(list.body.contains(ref.rawValue))
        }
        await w.f.close()
    }

    @Test func aRiderMayAskToArriveByATime() async throws {
        let w = try await BookingWorld()
        // The default 15-minute promise, not the one-rider test set-up's zero.
        try await w.f.database.pool.withConnection { try $0.execute("DELETE FROM settings WHERE key = 'scheduler'") }
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            #expect(page.body.contains(#"<input id="time_is-arrive" name="time_is" type="radio" value="arrive">"#))
            // A mistake keeps the choice.
            let wrong = try await client.web("/book", form: Self.bookForm(page.csrf ?? "", time: "") + [("time_is", "arrive")], jar: &jar)
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.body.contains("Enter the time you must arrive by"))
            #expect(wrong.body.contains(#"value="arrive" checked"#))
            let booked = try await client.web("/book", form: Self.bookForm(page.csrf ?? "", time: "09:00") + [("time_is", "arrive")], jar: &jar)
            #expect(booked.status == .seeOther)
            let location = try #require(booked.headers[.location])
            let ride = try await client.web(location, jar: &jar)
            #expect(ride.body.contains("<dt>Arrival</dt><dd>between 8:45 AM and 9:00 AM, as promised</dd>"), "\(ride.body)")
            let id = try #require(UUID(uuidString: String(location.dropFirst("/rides/".count).prefix(36))))
            let stored = try await w.f.database.pool.withConnection { conn in
                try conn.query(
                    "SELECT promise, to_char(window_end AT TIME ZONE 'America/New_York', 'HH24:MI'), estimated_dropoff_at <= window_end FROM rides WHERE id = \(id)"
                ).first!
            }
            #expect(try stored.decode(String.self, at: 0) == "arrive_by")
            #expect(try stored.decode(String.self, at: 1) == "09:00")
            #expect(try stored.decode(Bool.self, at: 2))
        }
        await w.f.close()
    }

    @Test func aTakenTimeIsThePapersSentenceWithOneTapForms() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await client.book(bob, RideRoutesTests.sclToDavenport).status == .created)
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let answer = try await client.web("/book", form: Self.bookForm(page.csrf ?? ""), jar: &jar)
            #expect(answer.status == .conflict)
            #expect(
                answer.body.range(
                    of: #"The van is occupied at 3:00 PM\. Does \d{1,2}:\d{2} PM or \d{1,2}:\d{2} PM work\?"#, options: .regularExpression) != nil)
            #expect(answer.body.contains(#"href="tel:6075550100""#))
            // Each suggestion's button posts the same ride at its time: one tap books it.
            let pattern = #"<input type="hidden" name="time" value="(\d\d:\d\d)">"#
            let times = try NSRegularExpression(pattern: pattern).matches(in: answer.body, range: NSRange(answer.body.startIndex..., in: answer.body))
                .map { String(answer.body[Range($0.range(at: 1), in: answer.body)!]) }
            #expect(times.count == 2)
            let later = try #require(times.last)
            #expect(answer.body.contains("Book ") && answer.body.contains(" tomorrow</button>"))
            let booked = try await client.web("/book", form: Self.bookForm(page.csrf ?? "", time: later), jar: &jar)
            #expect(booked.status == .seeOther)
        }
        await w.f.close()
    }

    @Test func cancellingWithinTheHourIsCalledLate() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/ride-now", jar: &jar)
            #expect(page.body.contains("the van picks you up at about <strong>7:05 AM today</strong>: be ready until 7:05 AM"))
            let booked = try await client.web(
                "/ride-now", form: [("csrf", page.csrf ?? ""), ("pickup", "SSS"), ("dropoff", "Bass"), ("companions", "0")], jar: &jar)
            let location = try #require(booked.headers[.location])
            let id = String(location.dropFirst("/rides/".count).prefix(36))
            let confirm = try await client.web("/rides/\(id)/cancel", jar: &jar)
            #expect(confirm.body.contains("This is a late cancellation"))
            let cancelled = try await client.web("/rides/\(id)/cancel", form: [("csrf", confirm.csrf ?? "")], jar: &jar)
            #expect(cancelled.headers[.location] == "/rides?done=cancelled-late")
            #expect(try await client.web("/rides?done=cancelled-late", jar: &jar).body.contains("recorded as a late cancellation"))
            // Someone else's ride is not found.
            var other = WebJar()
            _ = try await client.webSignIn("bob2", jar: &other)
            #expect(try await client.web("/rides/\(id)", jar: &other).status == .notFound)
        }
        await w.f.close()
    }

    @Test func aRiderNotOnTheWhitelistIsToldToCallTheOffice() async throws {
        let w = try await BookingWorld(riders: ["ann1"], whitelisted: false)
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let home = try await client.web("/", jar: &jar)
            #expect(home.body.contains("You are not cleared to book rides yet") && home.body.contains(#"href="tel:6075550100""#))
            let page = try await client.web("/book", jar: &jar)
            let refused = try await client.web("/book", form: Self.bookForm(page.csrf ?? ""), jar: &jar)
            #expect(refused.status == .forbidden && refused.body.contains("Call the office: 607-555-0100"))
            #expect(try await w.rideCount() == 0)
        }
        await w.f.close()
    }

    @Test func staticFilesAreVersionedAndCachedForAYear() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            let page = try await client.web("/sign-in", jar: &jar)
            let range = try #require(page.body.range(of: #"/static/app\.css\?v=[0-9a-f]{12}"#, options: .regularExpression))
            let css = try await client.web(String(page.body[range]), jar: &jar)
            #expect(css.status == .ok)
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(css.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(try await client.web("/static/nothing.js", jar: &jar).status == .notFound)
        }
        await w.f.close()
    }
}
