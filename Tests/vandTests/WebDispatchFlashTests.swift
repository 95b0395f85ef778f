import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand

/// The console's message after an action is the server's own: a `vand_dispatch_flash` cookie
/// written by hand, or carried to another session, is not shown.
@Suite("The console's flash cookie is signed")
struct WebDispatchFlashTests {
    /// A cookie value as the unsigned flash was written: base64url of the kind letter and the text.
    static func handMade(_ text: String) -> String {
        Data(("o" + text).utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func aHandMadeFlashIsIgnoredAndTheServersOwnIsShownOnce() async throws {
        let w = try await ConsoleWorld()
        try await w.application().test(.router) { client in
            let ref = try await WebDispatchQueueTests.book(w, client, at: "2026-11-30T15:00")
            var jar = WebJar()
            _ = try await client.webSignIn("dee1", jar: &jar)
            let forged = "Your session expired. Call 203-555-0199 with your password"
            let mac = String(repeating: "A", count: 43)
            for value in [Self.handMade(forged), Self.handMade(forged) + "." + mac] {
                jar.cookies[WebDispatchFlash.cookie] = value
                let page = try await client.web("/dispatch", jar: &jar)
                #expect(page.status == .ok)
                #expect(!page.body.contains("203-555-0199"), "a hand-made flash is shown: \(value)")
            }
            jar.cookies[WebDispatchFlash.cookie] = nil
            // The server's own flash, after an approve, is shown (once).
            let csrf = try #require(try await client.web("/dispatch", jar: &jar).csrf)
            let approved = try await client.web("/dispatch/approve", form: [("csrf", csrf), ("ride", ref)], jar: &jar)
            let real = try #require(jar.cookies[WebDispatchFlash.cookie])
            let after = try await WebDispatchQueueTests.follow(approved, client, jar: &jar)
            #expect(after.body.contains("Approved \(ref) for Ann Rivera."))
            #expect(!(try await client.web("/dispatch", jar: &jar)).body.contains("Approved \(ref)"))
            // The same cookie in another session (the dispatcher signed in again elsewhere) is not shown.
            var elsewhere = WebJar()
            _ = try await client.webSignIn("dee1", jar: &elsewhere)
            elsewhere.cookies[WebDispatchFlash.cookie] = real
            #expect(!(try await client.web("/dispatch", jar: &elsewhere)).body.contains("Approved \(ref)"))
        }
        await w.f.close()
    }
}
