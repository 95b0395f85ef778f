import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanPostgres
import VanTestSupport
@testable import vand

/// The edges of the API contract that openapi.yaml states and scripts/schemathesis fuzzes:
/// 405 with `Allow` for a known path, problem `type`s the project owns, the strict query rules.
@Suite("vand API contract")
struct ContractTests {
    /// openapi.yaml as JSON (it is written in YAML's JSON form after one comment line).
    static func document() throws -> [String: Any] {
        let path = try #require(OpenAPIRoute.defaultPath())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let json = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// The problem types the spec lists (Problem.type's enum).
    static func documentedProblemTypes() throws -> Set<String> {
        let schemas = try #require((try document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let problem = try #require(schemas["Problem"] as? [String: Any])
        let type = try #require((problem["properties"] as? [String: Any])?["type"] as? [String: Any])
        let choices = try #require(type["anyOf"] as? [[String: Any]])
        return Set(choices.compactMap { $0["enum"] as? [String] }.joined())
    }

    /// Every ride event kind the database turns into a rider's notification (the list in
    /// `vand_write_ride_event`, read from a migrated database) is a documented Notification kind.
    @Test func everyKindARiderHearsIsDocumented() async throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let notification = try #require((schemas["Notification"] as? [String: Any])?["properties"] as? [String: Any])
        let documented = Set(try #require((notification["kind"] as? [String: Any])?["enum"] as? [String]))
        let f = try await RouterFixture()
        let source = try await f.database.pool.withConnection { conn in
            try conn.query("SELECT pg_get_functiondef('vand_write_ride_event'::regproc)").first!.decode(String.self, at: 0)
        }
        let list = try #require(source.firstMatch(of: #/IF kind IN \(([^)]*)\)/#)?.1)
        var heard = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " '")) })
        // And each kind the rider hears on a condition (`kind = 'arrived' AND …`).
        for match in source.matches(of: #/kind = '([a-z_]+)'/#) { heard.insert(String(match.1)) }
        #expect(heard.isSuperset(of: ["no_show", "arrived", "tap_undone", "reassigned"]) && heard.count >= 9, "\(heard)")
        #expect(heard.isSubset(of: documented), "undocumented: \(heard.subtracting(documented).sorted())")
        await f.close()
    }

    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        let f = try await RouterFixture()
        try await f.application().test(.router) { client in
            for (method, uri, allow) in [
                (HTTPRequest.Method("TRACE")!, "/v1/rides", "GET, POST"),
                (.delete, "/v1/rides/\(UUID())", "GET"),
                (.put, "/v1/me", "GET, PATCH"),
                (.get, "/v1/session", "DELETE, POST"),
                (.head, "/healthz", "GET"),
                (.patch, "/", "GET"),
                (.delete, "/rides/\(UUID())/cancel", "GET, POST"),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    if method != .head {
                        #expect(Wire.object(response.body)["type"] as? String == "/problems/method-not-allowed")
                    }
                }
            }
            // Unknown paths stay 404, and so does a known route that finds nothing.
            try await client.execute(uri: "/v1/nothing-here", method: .post) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/rides/\(UUID())/nothing", method: .get) { #expect($0.status == .notFound) }
        }
        await f.close()
    }

    @Test func everyProblemTypeIsRelativeAndDocumented() async throws {
        let documented = try Self.documentedProblemTypes()
        let now = Date()
        var problems: [Problem] = [
            .notFound(), .databaseUnavailable(), .internalError(), .malformedJSON(), .unauthorized(tokenGiven: true),
            .invalidFields([ValidationError(field: "x", reason: "y")]), .methodNotAllowed(.put, allowed: [.get]),
        ]
        for error in [
            AccountError.invalidCredentials, .lockedOut(until: now), .disabled, .temporaryPasswordExpired, .notAuthenticated,
            .passwordChangeRequired, .notEligible(until: nil), .invalid([ValidationError(field: "current", reason: "wrong")]),
            .invalid([ValidationError(field: "new", reason: "short")]),
        ] {
            problems.append(.account(error, hotline: nil, now: now))
        }
        problems.append(.account(.wrongRole(.driver, needs: .rider), hotline: nil, now: now))
        let netID = try NetID("dee1")
        for error in [
            RoadError.notADriver(netID), .unknownVan("Van 9"), .vanHasShift(van: "Van 1"), .driverHasShift(van: "Van 1"), .noOpenShift,
            .vanHasNoShift(van: "Van 1"), .notOnRun, .actionDoesNotFit(.boarded, .dropoff), .needsEarlier(.boarded, before: .arrived, at: .pickup),
            .stopHasOutcome(.noShow), .rideNotActive(.pending), .noShowTooEarly(allowedFrom: now), .arrivedAfterWindow(windowEnd: now),
            .tapKeyReused, .noSuchTap, .shiftEnded, .undoWindowPassed(closedAt: now), .undoLaterFirst(.boarded), .cannotRestore("full"), .notYourVan,
            .trackerNotForVan, .fixInFuture, .fixTooOld(staleAfter: 120),
        ] {
            problems.append(.road(error, now: now, clock: ServiceTime(timeZone: TimeZone(identifier: "America/New_York")!)))
        }
        for problem in problems {
            #expect(problem.body.type.hasPrefix("/problems/"))
            #expect(documented.contains(problem.body.type), "\(problem.body.type) is not listed in openapi.yaml")
        }
        // Every slug built anywhere in Sources/vand is listed too (each is a literal `slug: "…"`).
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/vand").standardized
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var slugs = Set<String>()
        for file in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for match in text.matches(of: #/slug: "([a-z-]+)"/#) { slugs.insert(String(match.1)) }
        }
        #expect(slugs.count > 15)
        for slug in slugs { #expect(documented.contains("/problems/\(slug)"), "slug \(slug) is not listed in openapi.yaml") }
    }

    @Test func queryParametersAreExactlyWhatTheSpecSays() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let token = try await client.token("jd123", "correct horse battery")
            for (near, status) in [
                ("41.3163,-72.9224", HTTPResponse.Status.ok), ("90,180", .ok), ("-0.5,0", .ok),
                ("1e1,2", .unprocessableContent), ("+41,-72", .unprocessableContent), ("41, -72", .unprocessableContent),
                ("90.5,0", .unprocessableContent), ("041,0", .unprocessableContent), ("nan,0", .unprocessableContent),
            ] {
                let query = near.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-,")))!
                try await client.execute(uri: "/v1/places?near=\(query)", method: .get) { #expect($0.status == status, "near=\(near)") }
            }
            for (after, status) in [
                ("1764000000000000_\(UUID().uuidString.lowercased())", HTTPResponse.Status.ok),
                ("_1_\(UUID())", .unprocessableContent), ("+1_\(UUID())", .unprocessableContent),
                ("12345678901234567_\(UUID())", .unprocessableContent), ("1_x", .unprocessableContent),
            ] {
                try await client.execute(uri: "/v1/rides?after=\(after)", method: .get, headers: Wire.bearer(token)) {
                    #expect($0.status == status, "after=\(after)")
                }
            }
            for (wheelchair, status) in [
                ("true", HTTPResponse.Status.ok), ("false", .ok), ("yes", .unprocessableContent), ("1", .unprocessableContent),
            ] {
                let today = LocalDate(containing: f.clock.now, in: f.configuration.timeZone)
                try await client.execute(uri: "/v1/availability?date=\(today)&wheelchair=\(wheelchair)", method: .get) {
                    #expect($0.status == status, "wheelchair=\(wheelchair)")
                }
            }
        }
        await f.close()
    }

    @Test func bodiesThatAreNotJSONAre400OnEveryAccountRoute() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")
        try await f.application().test(.router) { client in
            let token = try await client.token("jd123", "correct horse battery")
            for (method, uri) in [(HTTPRequest.Method.patch, "/v1/me"), (.post, "/v1/password"), (.post, "/v1/session")] {
                try await client.execute(uri: uri, method: method, headers: Wire.bearer(token), body: ByteBuffer(string: "not json")) { response in
                    #expect(response.status == .badRequest, "\(method) \(uri)")
                    #expect(Wire.object(response.body)["type"] as? String == "/problems/malformed-json")
                }
            }
        }
        await f.close()
    }
}
