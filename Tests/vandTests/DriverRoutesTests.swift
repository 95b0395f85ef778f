import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

extension RouterFixture {
    /// A driver account that chose `password`.
    func activeDriver(_ netID: String, password: String = "correct horse battery") async throws {
        let id = try NetID(netID)
        _ = try await DriverAdministration(riders: riders).add(id, name: "Dee River", actor: "test")
        let hash = try await PasswordHasher(cost: 4).hash(password)
        try await database.pool.withConnection { _ = try RiderStore($0).setPassword(id, hash: hash) }
    }

    /// The demo fleet and places, and an approved ride of `rider` from SCL to Davenport picked up
    /// `minutes` from now on the van with id `van`.
    func approvedRide(_ rider: String, pickupIn minutes: Double, van: Int64) async throws -> UUID {
        let id = UUID(), now = clock.now, pickup = clock.now.addingTimeInterval(minutes * 60)
        try await database.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO rides (id, net_id, kind, pickup_place_id, dropoff_place_id, requested_at, pickup_at, estimated_dropoff_at, status, van_id)
                SELECT \(id), \(rider), 'scheduled', p.id, d.id, \(now), \(pickup), \(pickup.addingTimeInterval(600)), 'approved', \(van)
                FROM places p, places d WHERE p.name = 'Sterling Chemistry Lab' AND d.name = 'Davenport College'
                """)
        }
        return id
    }

    func vanID(_ name: String) async throws -> Int64 {
        try await database.pool.withConnection { try $0.query("SELECT id FROM vans WHERE name = \(name)").first!.decode(Int64.self, at: 0) }
    }

    /// The demo data, rider jd123 with an approved ride on Van 1 in 30 minutes, and driver dee1.
    func driversDay() async throws -> (van: Int64, ride: UUID) {
        _ = try await DemoData.load(into: database.pool, actor: "test")
        try await activeRider("jd123")
        try await activeDriver("dee1")
        let van = try await vanID("Van 1")
        return (van, try await approvedRide("jd123", pickupIn: 30, van: van))
    }
}

extension TestClientProtocol {
    /// dee1 signed in on the API with her shift started on `van`: her bearer token.
    func driverOnShift(van: Int64) async throws -> String {
        let token = try await self.token("dee1", "correct horse battery")
        try await execute(uri: "/v1/driver/shift", method: .post, headers: Wire.bearer(token), body: Wire.body(["van": van])) {
            #expect($0.status == .created)
        }
        return token
    }
}

@Suite("The driver's API and every role refusal")
struct DriverRoutesTests {
    static func problem(_ response: TestResponse) -> (status: HTTPResponse.Status, type: String?) {
        (response.status, Wire.object(response.body)["type"] as? String)
    }

    @Test func aRiderIsRefusedEveryDriverRouteAndNoTokenGets401() async throws {
        let f = try await RouterFixture()
        _ = try await DemoData.load(into: f.database.pool, actor: "test")
        try await f.activeRider("jd123")
        let van = try await f.vanID("Van 1")
        let ride = try await f.approvedRide("jd123", pickupIn: 30, van: van)
        try await f.application().test(.router) { client in
            let token = try await client.token("jd123", "correct horse battery")
            let tap = Wire.body(["tap_key": UUID().uuidString, "ride_id": ride.uuidString, "stop": "pickup", "action": "arrived"])
            let calls: [(String, HTTPRequest.Method, ByteBuffer?)] = [
                ("/v1/driver/shift", .get, nil), ("/v1/driver/shift", .post, Wire.body(["van": van])), ("/v1/driver/shift", .delete, nil),
                ("/v1/driver/run", .get, nil), ("/v1/driver/taps", .post, tap), ("/v1/driver/taps/\(UUID().uuidString)/undo", .post, nil),
                ("/v1/vans/\(van)/positions", .post, Wire.body(["lat": 41.3, "lon": -72.9])),
            ]
            for (uri, method, body) in calls {
                try await client.execute(uri: uri, method: method, headers: Wire.bearer(token), body: body) { response in
                    let (status, type) = Self.problem(response)
                    #expect(status == .forbidden && type == "/problems/wrong-role", "\(method) \(uri) as a rider: \(status) \(type ?? "")")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect((Wire.object(response.body)["detail"] as? String)?.contains("/v1/rides") == true)
                }
                try await client.execute(uri: uri, method: method, headers: Wire.json, body: body) { response in
                    #expect(response.status == .unauthorized, "\(method) \(uri) without a token")
                }
            }
        }
        #expect(try await f.database.pool.withConnection { try $0.query("SELECT count(*) FROM stop_taps").first!.decode(Int.self, at: 0) } == 0)
        await f.close()
    }

    @Test func aDriverIsRefusedTheRiderRoutesButKeepsHerAccount() async throws {
        let f = try await RouterFixture()
        try await f.activeDriver("dee1")
        try await f.application().test(.router) { client in
            let token = try await client.token("dee1", "correct horse battery")
            let book = Wire.body(["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:00"])
            for (uri, method, body) in [
                ("/v1/rides", HTTPRequest.Method.get, nil as ByteBuffer?), ("/v1/rides", .post, book),
                ("/v1/rides/\(UUID().uuidString)", .get, nil), ("/v1/notifications", .get, nil),
                ("/v1/rides?scope=past&limit=500", .get, nil),
            ] {
                try await client.execute(uri: uri, method: method, headers: Wire.bearer(token), body: body) { response in
                    let (status, type) = Self.problem(response)
                    #expect(status == .forbidden && type == "/problems/wrong-role", "\(method) \(uri) as a driver: \(status) \(type ?? "")")
                    #expect((Wire.object(response.body)["detail"] as? String)?.contains("/driver") == true)
                }
            }
            try await client.execute(uri: "/v1/me", method: .get, headers: Wire.bearer(token)) { #expect($0.status == .ok) }
            // The web app: the riders' home sends her to /driver; a rider page is the 403 page with what to use instead.
            let cookie: HTTPFields = [.cookie: "vand_session=\(token)", .accept: "text/html"]
            try await client.execute(uri: "/", method: .get, headers: cookie) { response in
                #expect(response.status == .seeOther || response.status == .found)
                #expect(response.headers[.location] == "/driver")
            }
            try await client.execute(uri: "/book", method: .get, headers: cookie) { response in
                #expect(response.status == .forbidden)
                #expect(
                    String(buffer: response.body).contains("driver’s page") || String(buffer: response.body).contains("driver&#39;s page")
                        || String(buffer: response.body).contains("/driver"))
            }
        }
        await f.close()
    }

    @Test func aDriversDayThroughTheAPI() async throws {
        let f = try await RouterFixture()
        _ = try await DemoData.load(into: f.database.pool, actor: "test")
        try await f.activeRider("jd123")
        try await f.activeDriver("dee1")
        try await f.activeDriver("dee2")
        let van1 = try await f.vanID("Van 1"), van2 = try await f.vanID("Van 2")
        let mine = try await f.approvedRide("jd123", pickupIn: 30, van: van1)
        try await f.activeRider("kb456")
        let theirs = try await f.approvedRide("kb456", pickupIn: 30, van: van2)
        try await f.application().test(.router) { client in
            let token = try await client.token("dee1", "correct horse battery")
            let other = try await client.token("dee2", "correct horse battery")
            try await client.execute(uri: "/v1/driver/run", method: .get, headers: Wire.bearer(token)) { response in
                #expect(Self.problem(response) == (.conflict, "/problems/no-open-shift"))
            }
            try await client.execute(uri: "/v1/driver/shift", method: .get, headers: Wire.bearer(token)) { response in
                let body = Wire.object(response.body)
                #expect(response.status == .ok && body["shift"] == nil)
                #expect((body["vans"] as? [[String: Any]])?.count ?? 0 >= 2)
            }
            try await client.execute(uri: "/v1/driver/shift", method: .post, headers: Wire.bearer(token), body: Wire.body(["van": van1])) {
                response in
                #expect(response.status == .created)
                #expect((Wire.object(response.body)["van"] as? [String: Any])?["name"] as? String == "Van 1")
            }
            try await client.execute(uri: "/v1/driver/shift", method: .post, headers: Wire.bearer(other), body: Wire.body(["van": van1])) {
                response in
                #expect(Self.problem(response) == (.conflict, "/problems/shift-conflict"))
            }
            try await client.execute(uri: "/v1/driver/shift", method: .post, headers: Wire.bearer(other), body: Wire.body(["van": van2])) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/driver/run", method: .get, headers: Wire.bearer(token)) { response in
                let stops = Wire.object(response.body)["stops"] as? [[String: Any]] ?? []
                #expect(response.status == .ok && stops.count == 2)
                #expect(stops.first?["ride_id"] as? String == mine.uuidString.lowercased(), "ids are written in lower case")
                #expect(stops.first?["next_actions"] as? [String] == ["arrived"])
            }
            let key = UUID().uuidString
            func tap(_ ride: UUID, _ stop: String, _ action: String, key: String = UUID().uuidString, as bearer: String? = nil) -> (
                String, ByteBuffer
            ) {
                (
                    bearer ?? token,
                    Wire.body([
                        "tap_key": key, "ride_id": ride.uuidString, "stop": stop, "action": action,
                        "position": ["lat": 41.3163, "lon": -72.9224, "accuracy_m": 8],
                    ])
                )
            }
            for (expected, outcome, body) in [
                (HTTPResponse.Status.created, "applied", tap(mine, "pickup", "arrived", key: key)),
                (.ok, "retried", tap(mine, "pickup", "arrived", key: key)),
                (.ok, "already_done", tap(mine, "pickup", "arrived")),
            ] {
                try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(body.0), body: body.1) { response in
                    #expect(response.status == expected && Wire.object(response.body)["outcome"] as? String == outcome)
                }
            }
            // Another van's stop, and a bad position, are refused.
            let foreign = tap(theirs, "pickup", "arrived")
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: foreign.1) { response in
                #expect(Self.problem(response) == (.forbidden, "/problems/not-on-your-run"))
            }
            let badFix = Wire.body([
                "tap_key": UUID().uuidString, "ride_id": mine.uuidString, "stop": "pickup", "action": "boarded",
                "position": ["lat": 91, "lon": 0],
            ])
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: badFix) { response in
                #expect(Self.problem(response) == (.unprocessableContent, "/problems/invalid-fields"))
            }
            // The other driver cannot undo her tap; she can, within two minutes.
            try await client.execute(uri: "/v1/driver/taps/\(key)/undo", method: .post, headers: Wire.bearer(other)) {
                #expect($0.status == .notFound)
            }
            f.clock.advance(by: 60)
            try await client.execute(uri: "/v1/driver/taps/\(key)/undo", method: .post, headers: Wire.bearer(token)) { response in
                #expect(response.status == .ok && Wire.object(response.body)["undone_at"] != nil)
            }
            try await client.execute(uri: "/v1/driver/shift", method: .delete, headers: Wire.bearer(token)) { response in
                #expect(response.status == .ok && Wire.object(response.body)["ended_at"] != nil)
            }
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: tap(mine, "pickup", "arrived").1) {
                response in
                #expect(Self.problem(response) == (.conflict, "/problems/no-open-shift"))
            }
        }
        await f.close()
    }

    @Test func positionsComeOnlyFromTheVansTrackerOrTheDriverOnItsShift() async throws {
        let f = try await RouterFixture()
        _ = try await DemoData.load(into: f.database.pool, actor: "test")
        try await f.activeDriver("dee1")
        let van1 = try await f.vanID("Van 1"), van2 = try await f.vanID("Van 2")
        let (_, tracker) = try await TrackerTokens(pool: f.database.pool, clock: f.clock).issue(vanNamed: "Van 2", actor: "test")
        let fix = Wire.body(["lat": 41.3163, "lon": -72.9224, "accuracy_m": 12])
        try await f.application().test(.router) { client in
            try await client.execute(uri: "/v1/vans/\(van1)/positions", method: .post, headers: Wire.bearer(tracker.rawValue), body: fix) {
                response in
                #expect(Self.problem(response) == (.forbidden, "/problems/not-your-van"))
            }
            try await client.execute(uri: "/v1/vans/\(van2)/positions", method: .post, headers: Wire.bearer(tracker.rawValue), body: fix) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/v1/vans/\(van2)/positions", method: .post, headers: Wire.json, body: fix) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(
                uri: "/v1/vans/\(van2)/positions", method: .post, headers: Wire.bearer(SessionToken.generate().rawValue), body: fix
            ) {
                #expect($0.status == .unauthorized)
            }
            for bad in [
                ["lat": 91, "lon": 0], ["lat": 0, "lon": 181], ["lat": 41.3, "lon": -72.9, "accuracy_m": -3],
                ["lat": 41.3, "lon": -72.9, "at": "2099-01-01T00:00:00Z"],
            ] as [[String: Any?]] {
                try await client.execute(
                    uri: "/v1/vans/\(van2)/positions", method: .post, headers: Wire.bearer(tracker.rawValue), body: Wire.body(bad)
                ) { response in
                    #expect(Self.problem(response) == (.unprocessableContent, "/problems/invalid-fields"), "\(bad)")
                }
            }
            let token = try await client.token("dee1", "correct horse battery")
            try await client.execute(uri: "/v1/vans/\(van1)/positions", method: .post, headers: Wire.bearer(token), body: fix) { response in
                #expect(Self.problem(response) == (.forbidden, "/problems/not-your-van"))  // no shift yet
            }
            try await client.execute(uri: "/v1/driver/shift", method: .post, headers: Wire.bearer(token), body: Wire.body(["van": van1])) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/vans/\(van1)/positions", method: .post, headers: Wire.bearer(token), body: fix) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/v1/vans/\(van2)/positions", method: .post, headers: Wire.bearer(token), body: fix) { response in
                #expect(Self.problem(response) == (.forbidden, "/problems/not-your-van"))
            }
        }
        let sources = try await f.database.pool.withConnection { conn in
            try conn.query("SELECT van_id, source FROM van_positions ORDER BY van_id").map {
                "\(try $0.decode(Int64.self, at: 0)):\(try $0.decode(String.self, at: 1))"
            }
        }
        #expect(sources == ["\(van1):driver", "\(van2):tracker"])
        await f.close()
    }
}

/// A refused tap names its times as people read them, in the service zone.
@Suite("The driver's refusals in the service zone's words")
struct DriverRefusalTimesTests {
    @Test func aNoShowTooEarlyAndAnUndoTooLateNameLocalTimes() async throws {
        let f = try await RouterFixture()
        let (van, ride) = try await f.driversDay()
        let zone = f.configuration.timeZone
        try await f.application().test(.router) { client in
            let token = try await client.driverOnShift(van: van)
            func tap(_ action: String, key: UUID = UUID()) -> ByteBuffer {
                Wire.body(["tap_key": key.uuidString, "ride_id": ride.uuidString, "stop": "pickup", "action": action])
            }
            let arrived = UUID()
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: tap("arrived", key: arrived)) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: tap("no_show")) { response in
                #expect(response.status == .conflict)
                let body = Wire.object(response.body)
                let from = try #require(body["allowed_from"] as? String)
                // The zone's offset, as `no_show_from` is written; never UTC's "Z" in New York.
                #expect(from.hasSuffix("-05:00"), "\(from)")
                let instant = try #require(ISO8601DateFormatter().date(from: from))
                let words = ServiceTime(timeZone: zone).text(
                    Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / 60).rounded(.up) * 60), .clockTime)
                #expect(body["detail"] as? String == "A no-show is allowed once the van has waited the set time, from \(words).")
            }
            f.clock.advance(by: 10 * 60)
            try await client.execute(uri: "/v1/driver/taps/\(arrived.uuidString)/undo", method: .post, headers: Wire.bearer(token)) { response in
                #expect(response.status == .conflict)
                let detail = try #require(Wire.object(response.body)["detail"] as? String)
                #expect(
                    detail.hasPrefix("A tap can be undone only until ") && detail.hasSuffix(", the end of its undo window; tell the dispatcher."),
                    "\(detail)")
                #expect(!detail.contains("2 minutes") && detail.contains(" AM") || detail.contains(" PM"), "\(detail)")
            }
        }
        await f.close()
    }
}
