import Foundation
import Synchronization
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres
import VanScheduler

/// A rider-ready world: demo places, `vans` vans, whitelisted riders who can log in.
/// The clock stands at Sunday 2026-11-29 07:00 in New York.
struct BookingWorld {
    let f: RouterFixture

    init(vans: Int = 1, riders: [String] = ["ann1", "bob2"], whitelisted: Bool = true) async throws {
        f = try await RouterFixture()
        _ = try await DemoData.load(into: f.database.pool, actor: "test")
        // Keep only `vans` vans (the demo has three), so a slot can be full.
        try await f.database.pool.withConnection { try $0.execute("UPDATE vans SET active = false WHERE name > \("Van \(vans)")") }
        try await f.database.oneRiderAtATime()
        for rider in riders {
            try await f.activeRider(rider)
            if whitelisted { _ = try await f.whitelist.add(WhitelistPatch(netID: try NetID(rider)), actor: "office") }
        }
    }

    func rideCount() async throws -> Int {
        try await f.database.pool.withConnection { try $0.query("SELECT count(*) FROM rides").first!.decode(Int.self, at: 0) }
    }
}

extension TestClientProtocol {
    /// POSTs a booking and returns status, parsed body and headers.
    func book(_ token: String, _ body: [String: Any?], key: String? = nil) async throws -> (
        status: HTTPResponse.Status, body: [String: Any], headers: HTTPFields
    ) {
        var headers = Wire.bearer(token)
        if let key { headers[.init("Idempotency-Key")!] = key }
        return try await execute(uri: "/v1/rides", method: .post, headers: headers, body: Wire.body(body)) { response in
            (response.status, Wire.object(response.body), response.headers)
        }
    }

    func get(_ uri: String, _ token: String? = nil) async throws -> (status: HTTPResponse.Status, body: [String: Any], raw: String) {
        try await execute(uri: uri, method: .get, headers: token.map(Wire.bearer) ?? [:]) { response in
            (response.status, Wire.object(response.body), String(buffer: response.body))
        }
    }
}

@Suite("Booking routes on the real router and a real database")
struct RideRoutesTests {
    static var sclToDavenport: [String: Any?] { ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:00"] }

    /// PostgreSQL's text cannot hold NUL and libpq would cut the value there ("a\u0000b" stored
    /// as "a"): a 422 naming the field, nothing booked. Any JSON string field, nested ones too.
    @Test func aNULInAJSONStringIsRefusedNamingTheFieldAndNothingIsStored() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let cases: [(String, String)] = [
                (#"{"pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:00", "note": "a\u0000b"}"#, "note"),
                (#"{"pickup": "SC\u0000L", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:00"}"#, "pickup"),
            ]
            for (body, field) in cases {
                try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(token), body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .unprocessableContent)
                    #expect(response.headers[.contentType] == "application/problem+json")
                    let fields = Wire.object(response.body)["fields"] as? [[String: String]]
                    #expect(fields?.first?["field"] == field)
                    #expect(fields?.first?["reason"]?.contains("NUL") == true)
                }
            }
            #expect(try await w.rideCount() == 0)
            // The account routes decode at the same point.
            try await client.execute(
                uri: "/v1/me", method: .patch, headers: Wire.bearer(token),
                body: ByteBuffer(string: #"{"email": "ann@example.edu\u0000"}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect((Wire.object(response.body)["fields"] as? [[String: String]])?.first?["field"] == "email")
            }
            // An escaped backslash before "u0000" is text, not NUL: booked, the note kept whole.
            let plain = #"{"pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:00", "note": "see \\u0000 here"}"#
            try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(token), body: ByteBuffer(string: plain)) { response in
                #expect(response.status == .created)
                #expect(Wire.object(response.body)["note"] as? String == #"see \u0000 here"#)
            }
            // A member the body does not read is ignored, NUL or not, as every unknown member is.
            let unknown = #"{"pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T18:00", "x\u0000y": "a\u0000", "extra": ["\u0000"]}"#
            try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(token), body: ByteBuffer(string: unknown)) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
            }
        }
        await w.f.close()
    }

    @Test func thePapersTypicalRideIsBookedPendingAndListed() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let (status, ride, headers) = try await client.book(token, Self.sclToDavenport)
            #expect(status == .created)
            let id = try #require(ride["id"] as? String)
            #expect(headers[.location] == "/v1/rides/\(id)")
            #expect(ride["status"] as? String == "pending")
            let ref = try #require(ride["ref"] as? String)
            #expect(try RideRef(validating: ref).rawValue == ref)
            #expect(ride["pickup_at"] as? String == "2026-11-30T15:00:00-05:00")
            #expect(ride["van"] as? String == "Van 1")
            #expect((ride["pickup"] as? [String: Any])?["place"] as? String == "Sterling Chemistry Lab")
            #expect((ride["dropoff"] as? [String: Any])?["place"] as? String == "Davenport College")
            let list = try await client.get("/v1/rides?scope=upcoming", token)
            #expect(list.status == .ok)
            #expect((list.body["rides"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect((list.body["rides"] as? [[String: Any]])?.map { $0["ref"] as? String } == [ref])
            let one = try await client.get("/v1/rides/\(id)", token)
            #expect(one.body["estimated_dropoff_at"] as? String != nil)
            #expect(one.body["ref"] as? String == ref)
            #expect(try await client.get("/v1/rides?scope=past", token).body["rides"] as? [Any] != nil)
        }
        await w.f.close()
    }

    /// The ride list checks its token in the statement that reads the page, and answers as the
    /// authenticator does: 401 before 422, 403 for a temporary-password session, pages in order.
    @Test func theRideListAnswersAsTheAuthenticatorAndPagesInOrder() async throws {
        let w = try await BookingWorld()
        let invitation = try await w.f.riders.invite(try NetID("cat3"), actor: "test")
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            var ids: [String] = []
            for hour in [17, 15, 16] {
                var body = Self.sclToDavenport
                body["pickup_at"] = "2026-11-30T\(hour):00"
                ids.append(try #require(try await client.book(token, body).body["id"] as? String))
            }
            #expect(try await client.get("/v1/rides?scope=upcoming").status == .unauthorized)
            #expect(try await client.get("/v1/rides?scope=upcoming", "not-a-token").status == .unauthorized)
            let unknown = String(repeating: "A", count: 43)
            #expect(try await client.get("/v1/rides?scope=upcoming", unknown).status == .unauthorized)
            // A bad query with a bad token is still a 401; with a good token, a 422 naming the field.
            #expect(try await client.get("/v1/rides?scope=soon", unknown).status == .unauthorized)
            let badScope = try await client.get("/v1/rides?scope=soon&limit=0", token)
            #expect(badScope.status == .unprocessableContent)
            #expect(badScope.raw.contains("scope") && badScope.raw.contains("limit"))
            let badCursor = try await client.get("/v1/rides?after=nope", token)
            #expect(badCursor.status == .unprocessableContent)
            #expect(badCursor.raw.contains("after"))
            // A temporary-password session may not read rides (403), whatever it asks.
            let temporary = try await client.token("cat3", invitation.temporaryPassword)
            #expect(try await client.get("/v1/rides?scope=upcoming", temporary).status == .forbidden)
            #expect(try await client.get("/v1/rides?scope=soon", temporary).status == .forbidden)
            // Pages of one, soonest first, then the cursor's next page, then the end.
            var seen: [String] = []
            var uri = "/v1/rides?scope=upcoming&limit=1"
            for _ in 0..<4 {
                let page = try await client.get(uri, token)
                #expect(page.status == .ok)
                seen += (page.body["rides"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                guard let next = page.body["next"] as? String else { break }
                uri = "/v1/rides?scope=upcoming&limit=1&after=\(next)"
            }
            #expect(seen == [ids[1], ids[2], ids[0]])
            let all = try await client.get("/v1/rides", token)
            #expect((all.body["rides"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[1], ids[2], ids[0]])
            #expect(all.body["next"] == nil)
            // Another rider sees none of them.
            let bob = try await client.token("bob2", "correct horse battery")
            #expect((try await client.get("/v1/rides", bob).body["rides"] as? [Any])?.isEmpty == true)
        }
        await w.f.close()
    }

    @Test func aTakenTimeIs409WithTheNearestTimesAndOneMoreCallBooksIt() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await client.book(ann, Self.sclToDavenport).status == .created)
            let (status, problem, headers) = try await client.book(bob, Self.sclToDavenport)
            #expect(status == .conflict)
            #expect(headers[.contentType] == "application/problem+json")
            #expect(problem["reason"] as? String == "occupied")
            let detail = try #require(problem["detail"] as? String)
            #expect(detail.hasPrefix("The van is occupied at 3:00 PM. Does "))
            let later = try #require(problem["later"] as? [String: Any])
            #expect(later["within_ada_window"] as? Bool == true)
            let laterTime = try #require(later["pickup_at"] as? String)
            #expect(detail.contains("work?"))
            var retry = Self.sclToDavenport
            retry["pickup_at"] = laterTime
            #expect(try await client.book(bob, retry).status == .created)
        }
        #expect(try await w.rideCount() == 2)
        await w.f.close()
    }

    @Test func aRetryWithTheSameIdempotencyKeyBooksOnce() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let first = try await client.book(token, Self.sclToDavenport, key: "tap-42")
            let second = try await client.book(token, Self.sclToDavenport, key: "tap-42")
            #expect(first.status == .created && second.status == .created)
            #expect(first.body["id"] as? String == second.body["id"] as? String)
            #expect(second.headers[.location] == first.headers[.location])
            var other = Self.sclToDavenport
            other["pickup_at"] = "2026-11-30T18:00"
            let reused = try await client.book(token, other, key: "tap-42")
            #expect(reused.status == .unprocessableContent)
            #expect(reused.body["type"] as? String == "/problems/idempotency-key-reused")
        }
        #expect(try await w.rideCount() == 1)
        await w.f.close()
    }

    @Test func aWeeklySeriesBooksWhatFitsListsTheConflictAndCancelsAsAWhole() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            var wednesday = Self.sclToDavenport
            wednesday["pickup_at"] = "2026-12-02T15:00"
            #expect(try await client.book(bob, wednesday).status == .created)
            var series = Self.sclToDavenport
            series["repeat"] = ["weekdays": ["mon", "wed"], "until": "2026-12-09"]
            let (status, body, headers) = try await client.book(ann, series)
            #expect(status == .created)
            let seriesID = try #require(body["series_id"] as? String)
            #expect(headers[.location] == "/v1/series/\(seriesID)")
            #expect((body["booked"] as? [Any])?.count == 3)  // Mon 30, Mon 7, Wed 9
            // The Location answers: the series' rides, soonest first; another rider's is not found.
            let listed = try await client.get("/v1/series/\(seriesID)", ann)
            #expect(listed.status == .ok && listed.body["series_id"] as? String == seriesID)
            #expect(
                (listed.body["rides"] as? [[String: Any]])?.compactMap { $0["pickup_at"] as? String }
                    == ["2026-11-30T15:00:00-05:00", "2026-12-07T15:00:00-05:00", "2026-12-09T15:00:00-05:00"])
            #expect(try await client.get("/v1/series/\(seriesID)", bob).status == .notFound)
            let conflicts = try #require(body["conflicts"] as? [[String: Any]])
            #expect(conflicts.count == 1)
            #expect(conflicts[0]["requested_pickup_at"] as? String == "2026-12-02T15:00:00-05:00")
            #expect((conflicts[0]["suggestions"] as? [Any])?.isEmpty == false)
            try await client.execute(uri: "/v1/series/\(seriesID)/cancel", method: .post, headers: Wire.bearer(ann)) { response in
                #expect(response.status == .ok)
                #expect(Wire.object(response.body)["cancelled"] as? Int == 3)
            }
            // Bob cannot cancel Ann's series: it does not exist for him.
            try await client.execute(uri: "/v1/series/\(seriesID)/cancel", method: .post, headers: Wire.bearer(bob)) { response in
                #expect(response.status == .notFound)
            }
        }
        await w.f.close()
    }

    @Test func aGPSPickupIsShownAsTheNearestPlaceAndKeepsItsCoordinates() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            var body = Self.sclToDavenport
            body["pickup"] = ["lat": 41.31640, "lon": -72.92245]
            let (status, ride, _) = try await client.book(token, body)
            #expect(status == .created)
            let pickup = try #require(ride["pickup"] as? [String: Any])
            #expect(pickup["place"] as? String == "Sterling Chemistry Lab")
            #expect(pickup["lat"] as? Double == 41.31640)
            #expect(pickup["display"] as? String == "Sterling Chemistry Lab")
        }
        await w.f.close()
    }

    @Test func anotherRidersRideIsA404AndALateCancellationIsMarked() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            let id = try #require(try await client.book(ann, Self.sclToDavenport).body["id"] as? String)
            #expect(try await client.get("/v1/rides/\(id)", bob).status == .notFound)
            #expect(try await client.get("/v1/rides/not-a-uuid", bob).status == .notFound)
            try await client.execute(uri: "/v1/rides/\(id)/cancel", method: .post, headers: Wire.bearer(bob)) { response in
                #expect(response.status == .notFound)
            }
            // Monday 14:30 New York: half an hour before the 15:00 pickup.
            w.f.clock.set(Date(timeIntervalSince1970: 1_796_067_000))
            try await client.execute(uri: "/v1/rides/\(id)/cancel", method: .post, headers: Wire.bearer(ann)) { response in
                #expect(response.status == .ok)
                let body = Wire.object(response.body)
                #expect(body["late"] as? Bool == true)
                #expect((body["ride"] as? [String: Any])?["status"] as? String == "cancelled")
            }
            try await client.execute(uri: "/v1/rides/\(id)/cancel", method: .post, headers: Wire.bearer(ann)) { response in
                #expect(response.status == .conflict)
            }
        }
        await w.f.close()
    }

    @Test func bookingsAndCancellationsTellThePlannerAfterTheyCommitAndReplaysDoNot() async throws {
        let w = try await BookingWorld()
        let heard = Mutex<[Date]>([])
        let router = buildRoutes(
            configuration: w.f.configuration, database: w.f.database, clock: w.f.clock,
            routeChanges: RouteChangeHook { time in heard.withLock { $0.append(time) } })
        // Monday 2026-11-30 15:00 New York.
        let pickup = Date(timeIntervalSince1970: 1_796_068_800)
        try await w.f.application(router).test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            let id = try #require(try await client.book(ann, Self.sclToDavenport, key: "planner-1").body["id"] as? String)
            #expect(heard.withLock { $0 } == [pickup])
            // The same request again is a replay: nothing new was written.
            #expect(try await client.book(ann, Self.sclToDavenport, key: "planner-1").status == .created)
            // A refusal writes no route (one rider at a time: the van is taken).
            #expect(try await client.book(bob, Self.sclToDavenport).status == .conflict)
            #expect(heard.withLock { $0 } == [pickup])
            try await client.execute(uri: "/v1/rides/\(id)/cancel", method: .post, headers: Wire.bearer(ann)) { response in
                #expect(response.status == .ok)
            }
            #expect(heard.withLock { $0 } == [pickup, pickup])
        }
        await w.f.close()
    }

    @Test func badInputIsAProblemNamingTheFieldAndBooksNothing() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            func fields(_ body: [String: Any?]) async throws -> [String] {
                let (status, problem, _) = try await client.book(token, body)
                #expect(status == .unprocessableContent, "\(body) → \(status)")
                return (problem["fields"] as? [[String: String]] ?? []).compactMap { $0["field"] }
            }
            var past = Self.sclToDavenport; past["pickup_at"] = "2026-11-28T15:00"
            #expect(try await fields(past) == ["pickup_at"])
            var far = Self.sclToDavenport; far["pickup_at"] = "2027-01-30T15:00"
            #expect(try await fields(far) == ["pickup_at"])
            var garbled = Self.sclToDavenport; garbled["pickup_at"] = "tomorrow-ish"
            #expect(try await fields(garbled) == ["pickup_at"])
            var unknown = Self.sclToDavenport; unknown["dropoff"] = "Davenprt"
            #expect(try await fields(unknown) == ["dropoff.place"])
            let (_, problem, _) = try await client.book(token, unknown)
            #expect((problem["detail"] as? String)?.contains("Davenport College") == true)
            var nyc = Self.sclToDavenport; nyc["pickup"] = ["lat": 40.7128, "lon": -74.0060]
            #expect(try await fields(nyc) == ["pickup"])
            var crowd = Self.sclToDavenport; crowd["companions"] = 3; crowd["note"] = String(repeating: "n", count: 600)
            #expect(try await fields(crowd) == ["companions"])
            var wrongType = Self.sclToDavenport; wrongType["needs_wheelchair"] = "yes"
            #expect(try await fields(wrongType) == ["needs_wheelchair"])
            var noTime = Self.sclToDavenport; noTime["pickup_at"] = nil
            #expect(try await fields(noTime) == ["pickup_at"])
            try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(token), body: ByteBuffer(string: #"{"pickup": "SCL", "#)) {
                response in
                #expect(response.status == .badRequest)
                #expect(Wire.object(response.body)["type"] as? String == "/problems/malformed-json")
            }
            let huge = ByteBuffer(string: #"{"note":""# + String(repeating: "x", count: 70_000) + #""}"#)
            try await client.execute(uri: "/v1/rides", method: .post, headers: Wire.bearer(token), body: huge) { response in
                #expect(response.status == .contentTooLarge)
            }
            // Saturday noon: the weekend van runs 6 PM to 7:30 AM — a 409 with the reason.
            var saturday = Self.sclToDavenport; saturday["pickup_at"] = "2026-12-05T12:00"
            let closed = try await client.book(token, saturday)
            #expect(closed.status == .conflict)
            #expect(closed.body["reason"] as? String == "outside_service_hours")
        }
        #expect(try await w.rideCount() == 0)
        await w.f.close()
    }

    @Test func onlyWhitelistedRidersMayBookButAnyoneLoggedInMayRead() async throws {
        let w = try await BookingWorld(whitelisted: false)
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let (status, problem, _) = try await client.book(token, Self.sclToDavenport)
            #expect(status == .forbidden)
            #expect(problem["hotline"] as? String == "607-555-0100")
            #expect(try await client.get("/v1/rides", token).status == .ok)
            #expect(try await client.get("/v1/rides").status == .unauthorized)
        }
        #expect(try await w.rideCount() == 0)
        await w.f.close()
    }

    @Test func onDemandRidesAreFiveMinutesOut() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let (status, ride, _) = try await client.book(token, ["kind": "on_demand", "pickup": "SCL", "dropoff": ["address": "300 George St"]])
            #expect(status == .created)
            // The clock says 07:00 New York; on demand means 07:05.
            #expect(ride["pickup_at"] as? String == "2026-11-29T07:05:00-05:00")
            #expect((ride["dropoff"] as? [String: Any])?["address"] as? String == "300 George St")
        }
        await w.f.close()
    }

    @Test func serviceInformationPlacesAndAvailability() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let service = try await client.get("/v1/service")
            #expect(service.status == .ok)
            #expect(service.body["hotline"] as? String == "607-555-0100")
            #expect(service.body["open_now"] as? Bool == true)  // Sunday 07:00, before the 07:30 close
            #expect((service.body["week"] as? [Any])?.count == 7)
            let search = try await client.execute(uri: "/v1/places?q=scl", method: .get) { String(buffer: $0.body) }
            #expect(search.contains("Sterling Chemistry Lab"))
            let near = try await client.execute(uri: "/v1/places?near=41.3164,-72.9224", method: .get) { response in
                try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [[String: Any]]
            }
            #expect(near?.first?["name"] as? String == "Sterling Chemistry Lab")
            #expect((near?.first?["distance_m"] as? Int ?? 999) < 20)
            #expect(try await client.get("/v1/places?near=north").status == .unprocessableContent)
            let free = try await client.get("/v1/availability?date=2026-11-30&wheelchair=true")
            #expect(free.status == .ok)
            #expect((free.body["free"] as? [Any])?.count == 1)
            #expect(try await client.get("/v1/availability?date=2026-13-01").status == .unprocessableContent)
            #expect(try await client.get("/v1/availability?date=2027-06-01").status == .unprocessableContent)
        }
        await w.f.close()
    }

    @Test func theNextOpeningSkipsClosureDaysAlsoBeyondTheWeek() async throws {
        let w = try await BookingWorld()
        let calendar = ServiceCalendarStore(pool: w.f.database.pool, timeZone: w.f.configuration.timeZone)
        // Weekdays 09:00–17:00; the clock says Sunday 2026-11-29 07:00.
        try await calendar.setHours(try (2...6).map { try ServiceWindow(weekday: $0, start: "09:00", end: "17:00") }, actor: "office")
        try await w.f.application().test(.router) { client in
            func next() async throws -> String? {
                let service = try await client.get("/v1/service")
                #expect(service.body["open_now"] as? Bool == false)
                return service.body["next_opening"] as? String
            }
            #expect(try await next() == "2026-11-30T09:00:00-05:00")
            try await calendar.addClosure(try LocalDate("2026-11-30"), reason: "Snow", actor: "office")
            #expect(try await next() == "2026-12-01T09:00:00-05:00")
            // Closed every weekday of this week and the next Monday: the Tuesday after.
            for date in ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-07"] {
                try await calendar.addClosure(try LocalDate(date), reason: "Break", actor: "office")
            }
            #expect(try await next() == "2026-12-08T09:00:00-05:00")
        }
        await w.f.close()
    }

    @Test func theOpenAPIDocumentListsEveryRoute() async throws {
        let w = try await BookingWorld()
        let router = buildRoutes(configuration: w.f.configuration, database: w.f.database, clock: w.f.clock)
        let path = try #require(OpenAPIRoute.defaultPath())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let json = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for route in router.router.routes {
            let openAPIPath = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(
                separator: "/")
            let key = "/" + openAPIPath
            let operation = paths[key]?[route.method.rawValue.lowercased()] as? [String: Any]
            #expect(operation != nil, "\(route.method) \(key) is not in openapi.yaml")
            #expect((operation?["responses"] as? [String: Any])?.isEmpty == false)
        }
        try await w.f.application(router).test(.router) { client in
            let served = try await client.execute(uri: "/openapi.yaml", method: .get) { String(buffer: $0.body) }
            #expect(served == text)
        }
        await w.f.close()
    }

    @Test func bookingOverARealSocket() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.live) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let (status, ride, _) = try await client.book(token, Self.sclToDavenport)
            #expect(status == .created)
            #expect(ride["status"] as? String == "pending")
        }
        await w.f.close()
    }
}
