import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand

@Suite("What a rider's pages show: rides by whether they still hold a van, group errors, pages not found")
struct WebRiderPagesTests {
    /// The part of `html` from `heading` to the next `<h2>` (or the end).
    static func section(_ html: String, _ heading: String) -> String {
        guard let start = html.range(of: "<h2>\(heading)</h2>") else { return "" }
        let rest = html[start.upperBound...]
        return String(rest[..<(rest.range(of: "<h2>")?.lowerBound ?? rest.endIndex)])
    }

    @Test func aCancelledRideIsNeitherTheNextRideNorUpcoming() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let first = try await client.web("/book", form: WebRoutesTests.bookForm(page.csrf ?? "", time: "15:00"), jar: &jar)
            let second = try await client.web("/book", form: WebRoutesTests.bookForm(page.csrf ?? "", time: "16:00"), jar: &jar)
            let firstID = String(try #require(first.headers[.location]).dropFirst("/rides/".count).prefix(36))
            let secondID = String(try #require(second.headers[.location]).dropFirst("/rides/".count).prefix(36))
            let cancelled = try await client.web("/rides/\(firstID)/cancel", form: [("csrf", page.csrf ?? "")], jar: &jar)
            #expect(cancelled.headers[.location] == "/rides?done=cancelled")

            let home = Self.section(try await client.web("/", jar: &jar).body, "Your next ride")
            #expect(home.contains("/rides/\(secondID)") && home.contains("4:00 PM tomorrow"), "\(home)")
            #expect(!home.contains("Cancelled"))

            let list = try await client.web("/rides", jar: &jar).body
            let upcoming = Self.section(list, "Upcoming")
            #expect(upcoming.contains("/rides/\(secondID)") && !upcoming.contains("/rides/\(firstID)"), "\(upcoming)")
            let calledOff = Self.section(list, "Cancelled and not approved")
            #expect(calledOff.contains("/rides/\(firstID)") && calledOff.contains(">Cancelled</span>"), "\(list)")
            // Each status names its ride, for app.js to change it live.
            #expect(upcoming.contains(#"<span class="status pending" data-ride="\#(secondID)">Waiting for approval</span>"#))
        }
        await w.f.close()
    }

    @Test func everySignedInPageTellsAppJSWhatEachDecisionMakesOfARide() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let home = try await client.web("/", jar: &jar).body
            #expect(home.contains(#"data-status-approved="approved|Approved|holds""#))
            #expect(home.contains(#"data-status-rejected="rejected|Not approved|released""#))
            #expect(home.contains(#"data-status-cancelled_by_service="cancelled|Cancelled|released""#))
            #expect(home.contains(#"data-status-no_show="no_show|Missed (no-show)|released""#))
        }
        await w.f.close()
    }

    @Test func theWeekdaysErrorLinksToTheFirstDayAndMarksEveryDay() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/book", jar: &jar)
            let answer = try await client.web(
                "/book", form: WebRoutesTests.bookForm(page.csrf ?? "") + [("repeat", "yes"), ("repeat_until", "2026-12-14")], jar: &jar)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.body.contains(##"<li><a href="#day-mon">"##), "\(answer.body)")
            #expect(answer.body.contains(#"id="repeat_days-error""#))
            for day in WebBookingRoutes.weekdays {
                #expect(
                    answer.body.contains(
                        #"<input id="day-\#(day.value)" name="repeat_days" type="checkbox" value="\#(day.value)" aria-invalid="true" aria-describedby="repeat_days-error">"#
                    ))
            }
            #expect(try await w.rideCount() == 0)
        }
        await w.f.close()
    }

    @Test func aPageNotFoundKeepsTheNavigationOfWhoeverAsked() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let html: HTTPFields = [.accept: "text/html,application/xhtml+xml"]
            var signedOut = WebJar()
            let missing = try await client.web("/no-such-page", jar: &signedOut, headers: html)
            #expect(missing.status == .notFound && missing.body.contains("<h1>Page not found</h1>"))
            #expect(missing.body.contains(#"href="/sign-in""#) && !missing.body.contains(#"href="/rides""#))
            #expect(missing.headers[.contentSecurityPolicy] == WebMiddleware.contentSecurityPolicy)

            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            for path in ["/no-such-page", "/rides/\(UUID())", "/static/nothing.js"] {
                let answer = try await client.web(path, jar: &jar, headers: html)
                #expect(answer.status == .notFound, "\(path)")
                #expect(answer.body.contains("not found</h1>"), "\(path)")
                #expect(answer.body.contains(#"href="/rides""#) && !answer.body.contains(#"href="/sign-in""#), "\(path): \(answer.body)")
                #expect(answer.body.contains(#"<form method="post" action="/sign-out">"#), "\(path)")
            }
            // The API's unknown addresses, and anything not asked by a browser, stay problem+json.
            for (path, headers) in [("/v1/nothing-here", html), ("/no-such-page", HTTPFields())] {
                try await client.execute(uri: path, method: .get, headers: headers) { response in
                    #expect(response.status == .notFound && response.headers[.contentType] == "application/problem+json", "\(path)")
                }
            }
        }
        await w.f.close()
    }
}
