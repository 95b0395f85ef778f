import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanPostgres
import VanServices
import VanTestSupport
@testable import vand

/// The way back booked with the ride there, on the real router and a real database (one van
/// carrying one rider at a time, the clock at Sunday 2026-11-29 07:00 New York): both or neither.
@Suite("The way back: a return booked with its ride, both or neither")
struct TripRoutesTests {
    static func trip(back: String, there: String = "2026-11-30T09:00") -> [String: Any?] {
        ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": there, "return": ["pickup_at": back]]
    }

    func refusals(_ w: BookingWorld) async throws -> Int {
        try await w.f.database.pool.withConnection { try $0.query("SELECT count(*) FROM booking_refusals").first!.decode(Int.self, at: 0) }
    }

    @Test func aReturnIsBookedWithItsRideFromWhereItEndsAndNamesIt() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let booked = try await client.book(token, Self.trip(back: "2026-11-30T15:30"))
            #expect(booked.status == .created, "\(booked.body)")
            let id = try #require(booked.body["id"] as? String)
            #expect(booked.headers[.location] == "/v1/rides/\(id)")
            let back = try #require(booked.body["return"] as? [String: Any])
            #expect(back["return_of"] as? String == id)
            #expect(back["pickup_at"] as? String == "2026-11-30T15:30:00-05:00")
            #expect((back["pickup"] as? [String: Any])?["place"] as? String == "Davenport College")
            #expect((back["dropoff"] as? [String: Any])?["place"] as? String == "Sterling Chemistry Lab")
            #expect(booked.body["return_of"] == nil)
            let shown = try await client.get("/v1/rides/\(try #require(back["id"] as? String))", token)
            #expect(shown.body["return_of"] as? String == id)
            #expect(try await w.rideCount() == 2)

            // Another place to start from.
            let other = try await client.book(
                token,
                [
                    "pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-12-01T09:00",
                    "return": ["pickup_at": "2026-12-01T12:00", "pickup": "Gym"],
                ])
            #expect(other.status == .created, "\(other.body)")
            #expect(((other.body["return"] as? [String: Any])?["pickup"] as? [String: Any])?["place"] as? String == "Payne Whitney Gym")
        }
        await w.f.close()
    }

    @Test func aReturnBeforeTheRideThereMayEndIsRefusedWithTheEarliestTimeAndNothingIsBooked() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let refused = try await client.book(token, Self.trip(back: "2026-11-30T09:10"))
            #expect(refused.status == .conflict)
            #expect(refused.body["reason"] as? String == "return_too_soon")
            #expect(refused.body["leg"] as? String == "return")
            let earliest = try #require(refused.body["earliest_pickup_at"] as? String)
            #expect(earliest > "2026-11-30T09:10" && earliest < "2026-11-30T10:00", "\(earliest)")
            let detail = refused.body["detail"] as? String ?? ""
            #expect(detail.hasPrefix("Nothing is booked: the way back can start at "), "\(detail)")
            let suggestion = try #require((refused.body["suggestions"] as? [[String: Any]])?.first)
            let at = try #require(suggestion["pickup_at"] as? String)
            #expect(at >= earliest, "\(at) \(earliest)")
            #expect(try await w.rideCount() == 0)
            #expect(try await refusals(w) == 0, "asking too soon is not a refusal for lack of a van")
            // Booked at the suggestion, it fits.
            let retry = try await client.book(token, Self.trip(back: at))
            #expect(retry.status == .created, "\(retry.body)")
        }
        await w.f.close()
    }

    @Test func aTakenReturnRefusesBothWithTheReturnsNearestTimes() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await client.book(bob, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T15:30"]).status == .created)
            let ann = try await client.token("ann1", "correct horse battery")
            let refused = try await client.book(ann, Self.trip(back: "2026-11-30T15:30"))
            #expect(refused.status == .conflict)
            #expect(refused.body["leg"] as? String == "return" && refused.body["reason"] as? String == "occupied", "\(refused.body)")
            #expect((refused.body["detail"] as? String)?.hasPrefix("Nothing is booked: the ride there fits, but the way back does not.") == true)
            #expect((refused.body["suggestions"] as? [Any])?.isEmpty == false)
            #expect(try await w.rideCount() == 1, "bob's ride only")
            #expect(try await refusals(w) == 1, "the way back's refusal is kept for the report")
            // The ride there taken: refused on its own leg.
            let thereTaken = try await client.book(ann, Self.trip(back: "2026-11-30T18:00", there: "2026-11-30T15:30"))
            #expect(thereTaken.status == .conflict && thereTaken.body["leg"] as? String == "there", "\(thereTaken.body)")
            #expect(try await w.rideCount() == 1)
        }
        await w.f.close()
    }

    @Test func aBadReturnIsRefusedNamingItsFieldAndNothingIsBooked() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let cases: [([String: Any?], String)] = [
                (Self.trip(back: "2026-11-30T08:00"), "return.pickup_at"),
                (Self.trip(back: "next tuesday"), "return.pickup_at"),
                (["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T09:00", "return": [String: Any]()], "return.pickup_at"),
                (
                    [
                        "pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T09:00",
                        "return": ["pickup_at": "2026-11-30T12:00", "pickup": "SCL"],
                    ], "return.pickup"
                ),
                (
                    [
                        "pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T09:00", "return": ["pickup_at": "2026-11-30T12:00"],
                        "repeat": ["weekdays": ["mon"], "until": "2026-12-14"],
                    ], "return"
                ),
            ]
            for (body, field) in cases {
                let answer = try await client.book(token, body)
                #expect(answer.status == .unprocessableContent, "\(field): \(answer.body)")
                let fields = (answer.body["fields"] as? [[String: String]])?.map { $0["field"] }
                #expect(fields?.contains(field) == true, "\(field): \(answer.body)")
            }
            #expect(try await w.rideCount() == 0)
        }
        await w.f.close()
    }

    @Test func cancellingTheRideThereCancelsTheWayBackOnlyWhenAsked() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            func cancel(_ id: String, _ body: String?) async throws -> [String: Any] {
                try await client.execute(
                    uri: "/v1/rides/\(id)/cancel", method: .post, headers: Wire.bearer(token), body: body.map { ByteBuffer(string: $0) }
                ) { response in
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                    return Wire.object(response.body)
                }
            }
            let kept = try await client.book(token, Self.trip(back: "2026-11-30T15:30"))
            let keptBack = try #require((kept.body["return"] as? [String: Any])?["id"] as? String)
            let alone = try await cancel(try #require(kept.body["id"] as? String), nil)
            #expect(alone["return"] == nil)
            #expect(try await client.get("/v1/rides/\(keptBack)", token).body["status"] as? String == "pending")

            let both = try await client.book(token, Self.trip(back: "2026-12-01T15:30", there: "2026-12-01T09:00"))
            let answer = try await cancel(try #require(both.body["id"] as? String), #"{"with_return": true}"#)
            #expect((answer["ride"] as? [String: Any])?["status"] as? String == "cancelled")
            #expect((answer["return"] as? [String: Any])?["status"] as? String == "cancelled")

            try await client.execute(
                uri: "/v1/rides/\(keptBack)/cancel", method: .post, headers: Wire.bearer(token), body: ByteBuffer(string: #"{"with_return": "yes"}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
            }
            #expect(try await client.get("/v1/rides/\(keptBack)", token).body["status"] as? String == "pending", "a bad body changes nothing")
        }
        await w.f.close()
    }
}

/// A will-call way back on the real router and a real database: booked with the ride there, then
/// "I'm ready" (`POST /v1/rides/{id}/ready`) once the driver has dropped her off.
@Suite("The way back: will-call and \"I'm ready\"")
struct WillCallRoutesTests {
    func post(_ client: some TestClientProtocol, _ uri: String, _ token: String) async throws -> (
        status: HTTPResponse.Status, body: [String: Any], headers: HTTPFields
    ) {
        try await client.execute(uri: uri, method: .post, headers: Wire.bearer(token)) { response in
            (response.status, Wire.object(response.body), response.headers)
        }
    }

    @Test func aWillCallIsBookedWhenSheSaysSheIsReadyOnceAndOnlyForHer() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let both = try await client.book(
                token,
                [
                    "pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T09:00",
                    "return": ["pickup_at": "2026-11-30T15:00", "will_call": true],
                ])
            #expect(both.status == .unprocessableContent)
            #expect((both.body["fields"] as? [[String: String]])?.first?["field"] == "return.will_call")
            #expect(try await w.rideCount() == 0, "a bad request books nothing")

            let booked = try await client.book(
                token, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T09:00", "return": ["will_call": true]])
            #expect(booked.status == .created, "\(booked.body)")
            let id = try #require(booked.body["id"] as? String)
            let call = try #require(booked.body["will_call"] as? [String: Any])
            #expect(call["state"] as? String == "open")
            #expect((call["pickup"] as? [String: Any])?["place"] as? String == "Davenport College")
            #expect((try await client.get("/v1/rides/\(id)", token).body["will_call"] as? [String: Any])?["state"] as? String == "open")

            // Before the driver drops her off: 409, nothing booked.
            let early = try await post(client, "/v1/rides/\(id)/ready", token)
            #expect(early.status == .conflict && (early.body["type"] as? String)?.hasSuffix("ride-there-not-over") == true, "\(early.body)")
            // Another rider's ride is not hers to call for.
            let bob = try await client.token("bob2", "correct horse battery")
            #expect(try await post(client, "/v1/rides/\(id)/ready", bob).status == .notFound)
            // A ride of hers booked without one has no way back to call for: 409, not 404 (the ride is there).
            let plain = try await client.book(token, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-12-02T09:00"])
            let none = try await post(client, "/v1/rides/\(try #require(plain.body["id"] as? String))/ready", token)
            #expect(none.status == .conflict && (none.body["type"] as? String)?.hasSuffix("no-will-call") == true, "\(none.body)")

            try await w.f.database.pool.withConnection { conn in
                try conn.execute("UPDATE rides SET status = 'approved' WHERE id = \(UUID(uuidString: id)!)")
                try conn.execute("UPDATE rides SET status = 'completed' WHERE id = \(UUID(uuidString: id)!)")
            }
            w.f.clock.set(Date(timeIntervalSince1970: 1_796_054_400))  // Monday 2026-11-30 11:00 New York
            let ready = try await post(client, "/v1/rides/\(id)/ready", token)
            #expect(ready.status == .created, "\(ready.body)")
            let back = try #require(ready.body["id"] as? String)
            #expect(ready.headers[.location] == "/v1/rides/\(back)")
            #expect(ready.body["return_of"] as? String == id && ready.body["kind"] as? String == "on_demand")
            #expect(ready.body["pickup_at"] as? String == "2026-11-30T11:05:00-05:00")
            #expect((ready.body["dropoff"] as? [String: Any])?["place"] as? String == "Sterling Chemistry Lab")
            let again = try await post(client, "/v1/rides/\(id)/ready", token)
            #expect(again.status == .ok && again.body["id"] as? String == back)
            let shown = try await client.get("/v1/rides/\(id)", token)
            #expect((shown.body["will_call"] as? [String: Any])?["ready_at"] as? String == "2026-11-30T11:00:00-05:00")
            #expect(try await w.rideCount() == 3)
        }
        await w.f.close()
    }

    @Test func noVanWithinTheWaitKeepsHerCallOpenAndCancellingWithTheReturnClosesIt() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let booked = try await client.book(
                token, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-11-30T09:00", "return": ["will_call": true]])
            let id = try #require(booked.body["id"] as? String)
            try await w.f.database.pool.withConnection { conn in
                try conn.execute("UPDATE rides SET status = 'approved' WHERE id = \(UUID(uuidString: id)!)")
                try conn.execute("UPDATE rides SET status = 'completed' WHERE id = \(UUID(uuidString: id)!)")
            }
            // The one van in service is taken off the road.
            try await w.f.database.pool.withConnection { try $0.execute("UPDATE vans SET active = false") }
            w.f.clock.set(Date(timeIntervalSince1970: 1_796_054_400))  // Monday 11:00
            let refused = try await post(client, "/v1/rides/\(id)/ready", token)
            #expect(refused.status == .conflict, "\(refused.body)")
            #expect((refused.body["type"] as? String)?.hasSuffix("will-call-no-van") == true, "\(refused.body)")
            #expect((refused.body["detail"] as? String)?.contains("within 30 minutes") == true)
            #expect((try await client.get("/v1/rides/\(id)", token).body["will_call"] as? [String: Any])?["state"] as? String == "open")

            #expect(try await w.rideCount() == 1)

            // A ride there cancelled with its return calls the will-call off.
            try await w.f.database.pool.withConnection { try $0.execute("UPDATE vans SET active = true") }
            let next = try await client.book(
                token, ["pickup": "SCL", "dropoff": "Davenport", "pickup_at": "2026-12-01T09:00", "return": ["will_call": true]])
            let nextID = try #require(next.body["id"] as? String)
            let cancel = try await client.execute(
                uri: "/v1/rides/\(nextID)/cancel", method: .post, headers: Wire.bearer(token), body: ByteBuffer(string: #"{"with_return": true}"#)
            ) { Wire.object($0.body) }
            #expect(cancel["will_call_closed"] as? Bool == true, "\(cancel)")
            let closed = try await post(client, "/v1/rides/\(nextID)/ready", token)
            #expect(closed.status == .conflict && (closed.body["type"] as? String)?.hasSuffix("will-call-closed") == true, "\(closed.body)")
        }
        await w.f.close()
    }
}
