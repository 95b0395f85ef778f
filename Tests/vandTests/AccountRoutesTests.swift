import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

@Suite("Account routes on the real router and a real database")
struct AccountRoutesTests {
    @Test func invitedRiderMustChangeThePasswordBeforeAnythingElse() async throws {
        let f = try await RouterFixture()
        let invitation = try await f.riders.invite(try NetID("jd123"), actor: "alice")
        try await f.application().test(.router) { client in
            let (status, body, headers) = try await client.login(" JD123 ", invitation.temporaryPassword)
            #expect(status == .created)
            #expect(headers[.cacheControl] == "no-store")
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["must_change_password"] as? Bool == true)
            #expect(body["expires_at"] as? String != nil)
            let token = try #require(body["token"] as? String)

            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(token)) { response in
                #expect(response.status == .forbidden)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(Wire.object(response.body)["type"] as? String == "/problems/password-change-required")
            }
            // A weak new password: 422 naming the field.
            try await client.execute(
                uri: "/v1/password", method: .post, headers: Wire.bearer(token),
                body: Wire.body(["current": invitation.temporaryPassword, "new": "short"])
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = Wire.object(response.body)["fields"] as? [[String: String]]
                #expect(fields?.first?["field"] == "new")
            }
            try await client.execute(
                uri: "/v1/password", method: .post, headers: Wire.bearer(token),
                body: Wire.body(["current": invitation.temporaryPassword, "new": "correct horse battery"])
            ) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(token)) { response in
                #expect(response.status == .ok)
                let me = Wire.object(response.body)
                #expect(me["net_id"] as? String == "jd123")
                #expect(me["must_change_password"] as? Bool == false)
                #expect(me["whitelisted"] as? Bool == false)
                #expect(me.keys.contains("phone"))
            }
        }
        await f.close()
    }

    @Test func temporaryPasswordExpiresAfterSevenDays() async throws {
        let f = try await RouterFixture()
        let invitation = try await f.riders.invite(try NetID("jd123"), actor: "alice")
        f.clock.advance(by: 7 * 86_400)
        try await f.application().test(.router) { client in
            let (status, body, _) = try await client.login("jd123", invitation.temporaryPassword)
            #expect(status == .forbidden)
            #expect(body["type"] as? String == "/problems/temporary-password-expired")
            #expect(body["hotline"] as? String == "607-555-0100")
        }
        await f.close()
    }

    @Test func unknownNetIDAndWrongPasswordGetTheSameAnswer() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let wrong = try await client.login("jd123", "not my password")
            let unknown = try await client.login("nobody9", "not my password")
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(NSDictionary(dictionary: wrong.body) == NSDictionary(dictionary: unknown.body))
            #expect(wrong.headers[.wwwAuthenticate] == unknown.headers[.wwwAuthenticate])
        }
        await f.close()
    }

    @Test func throttlingAnswers429WithRetryAfterAndEnds() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            for _ in 1...4 { #expect(try await client.login("jd123", "wrong password").status == .unauthorized) }
            f.clock.advance(by: 60)
            let fifth = try await client.login("jd123", "wrong password")
            #expect(fifth.status == .tooManyRequests)
            #expect(fifth.headers[.retryAfter] == "60")
            #expect(fifth.body["type"] as? String == "/problems/locked-out")
            f.clock.advance(by: 30)
            let locked = try await client.login("jd123", "correct horse battery")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "30")
            f.clock.advance(by: 30)
            #expect(try await client.login("jd123", "correct horse battery").status == .created)
        }
        await f.close()
    }

    /// Issue 16's attack over real sockets: with vand behind a trusted proxy, X-Forwarded-For
    /// names the client. Guesses from one client block that client; the rider, from another,
    /// signs in at once, on the JSON API and on the web app's form. The header from anyone
    /// but a trusted proxy is ignored, so a guesser cannot dodge by inventing addresses.
    @Test func aGuesserElsewhereCannotLockTheRiderOutOverRealSockets() async throws {
        let f = try await RouterFixture(trustedProxies: try TrustedProxies.fromEnvironment(["VAND_TRUSTED_PROXIES": "127.0.0.1, ::1"]))
        try await f.activeRider("jd123")
        try await f.application().test(.live) { client in
            func login(_ password: String, from address: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/v1/session", method: .post, headers: [.contentType: "application/json", .init("X-Forwarded-For")!: address],
                    body: Wire.body(["net_id": "jd123", "password": password])
                ) { $0.status }
            }
            for _ in 1...4 { #expect(try await login("guess", from: "203.0.113.66") == .unauthorized) }
            #expect(try await login("guess", from: "203.0.113.66") == .tooManyRequests)
            #expect(try await login("correct horse battery", from: "203.0.113.66") == .tooManyRequests)
            // The rider from their phone: API and web form.
            #expect(try await login("correct horse battery", from: "198.51.100.7") == .created)
            var jar = WebJar()
            let page = try await client.web("/sign-in", jar: &jar, headers: [.init("X-Forwarded-For")!: "198.51.100.7"])
            let signedIn = try await client.web(
                "/sign-in", form: [("csrf", page.csrf ?? ""), ("net_id", "jd123"), ("password", "correct horse battery")],
                jar: &jar, headers: [.init("X-Forwarded-For")!: "198.51.100.7"])
            #expect(signedIn.status == .seeOther)
            // The guesser on the web form is blocked too.
            var guesser = WebJar()
            let guessPage = try await client.web("/sign-in", jar: &guesser, headers: [.init("X-Forwarded-For")!: "203.0.113.66"])
            let guessed = try await client.web(
                "/sign-in", form: [("csrf", guessPage.csrf ?? ""), ("net_id", "jd123"), ("password", "guess")],
                jar: &guesser, headers: [.init("X-Forwarded-For")!: "203.0.113.66"])
            #expect(guessed.status == .tooManyRequests)
            #expect(guessed.body.contains("Too many failed sign-ins from this address"))
        }
        await f.close()
    }

    /// Without VAND_TRUSTED_PROXIES the header counts for nothing: every request is its peer.
    @Test func forwardedForIsIgnoredUnlessTheProxyIsTrusted() {
        let none = TrustedProxies.none
        #expect(none.client(peer: "127.0.0.1", forwardedFor: ["198.51.100.7"]).rawValue == "127.0.0.1")
        let trusted = TrustedProxies(addresses: ["127.0.0.1", "10.0.0.2"])
        // From the right, skipping trusted proxies; a client-written hop further left is not believed.
        #expect(trusted.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 198.51.100.7, 10.0.0.2"]).rawValue == "198.51.100.7")
        #expect(trusted.client(peer: "::ffff:127.0.0.1", forwardedFor: ["2001:DB8::7"]).rawValue == "2001:db8::7")
        #expect(trusted.client(peer: "127.0.0.1", forwardedFor: ["not-an-address"]).rawValue == "127.0.0.1")
        #expect(trusted.client(peer: "127.0.0.1", forwardedFor: []).rawValue == "127.0.0.1")
        #expect(trusted.client(peer: "192.0.2.1", forwardedFor: ["198.51.100.7"]).rawValue == "192.0.2.1")
        #expect(trusted.client(peer: nil, forwardedFor: ["198.51.100.7"]) == .unknown)
        #expect(throws: SettingError.self) { try TrustedProxies.fromEnvironment(["VAND_TRUSTED_PROXIES": "127.0.0.1,proxy.internal"]) }
    }

    @Test func logoutRevokesTheToken() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let token = try await client.token("jd123", "correct horse battery")
            let other = try await client.token("jd123", "correct horse battery")
            try await client.execute(uri: "/v1/session", method: .delete, headers: Wire.bearer(token)) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(token)) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
            }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(other)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/me", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(Wire.object(response.body)["type"] as? String == "/problems/unauthorized")
            }
        }
        await f.close()
    }

    /// bcrypt reads 72 bytes: a 72-byte password must not accept itself plus any suffix, at
    /// sign-in (API and web) or as the current password of a change.
    @Test func aPasswordOfExactly72BytesRefusesAnyLongerGuess() async throws {
        let f = try await RouterFixture()
        let password = String(repeating: "horse battery ", count: 5) + "ab"  // 72 bytes
        #expect(password.utf8.count == 72)
        try await f.activeRider("jd123", password: password)
        try await f.application().test(.router) { client in
            #expect(try await client.login("jd123", password + "anything else").status == .unauthorized)
            #expect(try await client.login("jd123", password + "!").status == .unauthorized)
            let token = try await client.token("jd123", password)
            var jar = WebJar()
            #expect(try await client.webSignIn("jd123", password + "x", jar: &jar).status == .unauthorized)
            let changed = try await client.execute(
                uri: "/v1/password", method: .post, headers: Wire.bearer(token),
                body: Wire.body(["current": password + "x", "new": "a brand new passphrase"])
            ) { response in
                (response.status, Wire.object(response.body)["fields"] as? [[String: String]])
            }
            #expect(changed.0 == .forbidden && changed.1?.first?["field"] == "current", "\(changed)")
        }
        await f.close()
    }

    /// Every API answer, success or problem, tells the browser not to sniff its type.
    @Test func apiAnswersCarryNoSniff() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let token = try await client.token("jd123", "correct horse battery")
            for (uri, token, status) in [
                ("/v1/me", token, HTTPResponse.Status.ok), ("/v1/me", nil, .unauthorized),
                ("/v1/nowhere", token, .notFound), ("/v1/notifications?after=x", token, .unprocessableContent),
                ("/healthz", nil, .ok),
            ] {
                let headers = token.map { Wire.bearer($0) } ?? [:]
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == status, "\(uri)")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                }
            }
            try await client.execute(uri: "/v1/session", method: .post, headers: Wire.json, body: ByteBuffer(string: "{")) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
        }
        await f.close()
    }

    @Test func passwordChangeRevokesOtherSessions() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let phone = try await client.token("jd123", "correct horse battery")
            let laptop = try await client.token("jd123", "correct horse battery")
            try await client.execute(
                uri: "/v1/password", method: .post, headers: Wire.bearer(phone),
                body: Wire.body(["current": "wrong one here", "new": "another good passphrase"])
            ) { response in
                #expect(response.status == .forbidden)
                #expect(Wire.object(response.body)["type"] as? String == "/problems/wrong-password")
                #expect((Wire.object(response.body)["fields"] as? [[String: String]])?.first?["field"] == "current")
            }
            try await client.execute(
                uri: "/v1/password", method: .post, headers: Wire.bearer(phone),
                body: Wire.body(["current": "correct horse battery", "new": "another good passphrase"])
            ) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(phone)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(laptop)) { #expect($0.status == .unauthorized) }
            #expect(try await client.login("jd123", "correct horse battery").status == .unauthorized)
            #expect(try await client.login("jd123", "another good passphrase").status == .created)
        }
        await f.close()
    }

    @Test func disablingEndsLiveSessionsAndBlocksLogin() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let token = try await client.token("jd123", "correct horse battery")
            try await f.riders.disable(try NetID("jd123"), actor: "alice")
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(token)) { #expect($0.status == .unauthorized) }
            let login = try await client.login("jd123", "correct horse battery")
            #expect(login.status == .forbidden)
            #expect(login.body["type"] as? String == "/problems/account-disabled")
        }
        await f.close()
    }

    @Test func notWhitelistedRidersGet403WithTheHotline() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.activeRider("ab12")
        _ = try await f.whitelist.add(WhitelistPatch(netID: try NetID("ab12"), validUntil: .some(try LocalDate("2026-11-30"))), actor: "alice")
        try await f.application().test(.router) { client in
            let outsider = try await client.token("jd123", "correct horse battery")
            let cleared = try await client.token("ab12", "correct horse battery")
            // Booking checks the whitelist before it reads the body: an empty body shows which answer won.
            try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(outsider), body: Wire.body([:])) { response in
                #expect(response.status == .forbidden)
                #expect(response.headers[.contentType] == "application/problem+json")
                let problem = Wire.object(response.body)
                #expect(problem["type"] as? String == "/problems/not-eligible")
                #expect(problem["hotline"] as? String == "607-555-0100")
                #expect((problem["detail"] as? String)?.contains("607-555-0100") == true)
            }
            try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(cleared), body: Wire.body([:])) { response in
                #expect(response.status == .unprocessableContent || response.status == .badRequest)  // past the whitelist, on to the body
            }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(cleared)) { response in
                let me = Wire.object(response.body)
                #expect(me["whitelisted"] as? Bool == true)
                #expect(me["whitelisted_until"] as? String == "2026-11-30")
            }
            // After the entry's last day (service time zone) the same rider is refused.
            f.clock.advance(by: 2 * 86_400)
            try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(cleared), body: Wire.body([:])) { response in
                #expect(response.status == .forbidden)
                #expect((Wire.object(response.body)["detail"] as? String)?.contains("ended on 2026-11-30") == true)
            }
            try await client.execute(uri: "/v1/rides", method: .post, body: Wire.body([:])) { #expect($0.status == .unauthorized) }
        }
        await f.close()
    }

    @Test func profileUpdatesAreValidatedPerField() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let token = try await client.token("jd123", "correct horse battery")
            try await client.execute(
                uri: "/v1/me", method: .patch, headers: Wire.bearer(token),
                body: Wire.body(["phone": "12", "email": "nope", "name": "Me"])
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = (Wire.object(response.body)["fields"] as? [[String: String]])?.compactMap { $0["field"] }
                #expect(fields == ["email", "name", "phone"])
            }
            try await client.execute(
                uri: "/v1/me", method: .patch, headers: Wire.bearer(token),
                body: Wire.body(["phone": "(607) 555-0100", "email": "JD@Example.edu"])
            ) { response in
                #expect(response.status == .ok)
                let me = Wire.object(response.body)
                #expect(me["phone"] as? String == "6075550100")
                #expect(me["email"] as? String == "JD@example.edu")
            }
            try await client.execute(uri: "/v1/me", method: .patch, headers: Wire.bearer(token), body: Wire.body(["email": nil])) { response in
                let me = Wire.object(response.body)
                #expect(me["email"] is NSNull)
                #expect(me["phone"] as? String == "6075550100")
            }
        }
        await f.close()
    }

    @Test func malformedRequestsAreProblemsNamingTheField() async throws {
        let f = try await RouterFixture()
        try await f.application().test(.router) { client in
            try await client.execute(uri: "/v1/session", method: .post, headers: Wire.json, body: Wire.body(["net_id": "jd123"])) { response in
                #expect(response.status == .unprocessableContent)
                #expect((Wire.object(response.body)["fields"] as? [[String: String]])?.first?["field"] == "password")
            }
            try await client.execute(uri: "/v1/session", method: .post, headers: Wire.json, body: Wire.body(["net_id": "1 bad", "password": "x"])) {
                response in
                #expect(response.status == .unprocessableContent)
                #expect((Wire.object(response.body)["fields"] as? [[String: String]])?.first?["field"] == "net_id")
            }
            try await client.execute(uri: "/v1/session", method: .post, headers: Wire.json, body: Wire.body(["net_id": 5, "password": "x"])) {
                response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/v1/session", method: .post, headers: Wire.json, body: ByteBuffer(string: "{not json")) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: "Basic amQxMjM6eA=="]) {
                #expect($0.status == .unauthorized)
            }
        }
        await f.close()
    }

    @Test func theLiveServerLogsInAndServesTheProfile() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        let app = buildApplication(configuration: f.configuration, database: f.database, logger: TestCluster.quietLogger, clock: f.clock)
        try await app.test(.live) { client in
            let token = try await client.token("jd123", "correct horse battery")
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(token)) { response in
                #expect(response.status == .ok)
                #expect(Wire.object(response.body)["net_id"] as? String == "jd123")
            }
            try await client.execute(uri: "/v1/session", method: .delete, headers: Wire.bearer(token)) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(token)) { #expect($0.status == .unauthorized) }
        }
        await f.close()
    }
}
