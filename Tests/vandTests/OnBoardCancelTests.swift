import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

@Suite("A rider on board cannot cancel her ride, whatever the planned pickup time")
struct OnBoardCancelTests {
    static func status(_ w: BookingWorld, _ ride: UUID) async throws -> String {
        try await w.f.database.pool.withConnection { conn in
            try conn.query("SELECT status FROM rides WHERE id = \(ride)").first!.decode(String.self, at: 0)
        }
    }

    @Test func theAPIAndTheWebRefuseAndChangeNothing() async throws {
        let (w, shift) = try await RideETATests.world()
        // The van came 20 minutes early and she got on: the planned pickup is still ahead.
        let ann = try await RideETATests.ride(w, pickupIn: 20)
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            #expect(try await client.web("/rides/\(ann)", jar: &jar).body.contains("Cancel this ride"))
            try await RideETATests.tap(w, shift, ann, "pickup", "arrived")
            #expect(try await client.web("/rides/\(ann)", jar: &jar).body.contains("Cancel this ride"))
            try await RideETATests.tap(w, shift, ann, "pickup", "boarded")

            let token = try await client.token("ann1", "correct horse battery")
            try await client.execute(uri: "/v1/rides/\(ann)/cancel", method: .post, headers: Wire.bearer(token)) { response in
                #expect(response.status == .conflict)
                #expect(response.headers[.contentType] == "application/problem+json")
                let body = Wire.object(response.body)
                #expect((body["type"] as? String)?.hasSuffix("not-cancellable") == true)
                #expect(body["detail"] as? String == "you are on board the van; to change where you get off, tell the driver")
            }
            #expect(try await Self.status(w, ann) == "approved")

            let page = try await client.web("/rides/\(ann)", jar: &jar)
            #expect(!page.body.contains("Cancel this ride"))
            let confirm = try await client.web("/rides/\(ann)/cancel", jar: &jar)
            #expect(
                confirm.body.contains("You are on board the van, so this ride cannot be cancelled. To change where you get off, tell the driver."))
            #expect(!confirm.body.contains("Yes, cancel this ride"))
            let csrf = try #require(try await client.web("/book", jar: &jar).csrf)
            let refused = try await client.web("/rides/\(ann)/cancel", form: [("csrf", csrf)], jar: &jar)
            #expect(refused.status == .conflict)
            #expect(refused.body.contains("This ride cannot be cancelled: you are on board the van; to change where you get off, tell the driver."))
            #expect(try await Self.status(w, ann) == "approved")
        }
        await w.f.close()
    }

    /// Picked up on time, she is on board after the planned pickup: the answer is still "tell the
    /// driver" (the one ride policy's sentence), not "the pickup time has passed; call the dispatcher".
    @Test func onBoardPastThePlannedPickupSheIsToldToTellTheDriver() async throws {
        let (w, shift) = try await RideETATests.world()
        let ann = try await RideETATests.ride(w, pickupIn: 5)
        try await RideETATests.tap(w, shift, ann, "pickup", "arrived")
        try await RideETATests.tap(w, shift, ann, "pickup", "boarded")
        w.f.clock.advance(by: 10 * 60)
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            try await client.execute(uri: "/v1/rides/\(ann)/cancel", method: .post, headers: Wire.bearer(token)) { response in
                #expect(response.status == .conflict)
                #expect(Wire.object(response.body)["detail"] as? String == RidePolicy.sentence(.onBoard, .cancel, by: .rider))
            }
            #expect(try await Self.status(w, ann) == "approved")
        }
        await w.f.close()
    }

    @Test func anUndoneBoardingCanBeCancelledAgainAndTheSeriesCancelSkipsABoardedRide() async throws {
        let (w, shift) = try await RideETATests.world()
        let boarded = try await RideETATests.ride(w, pickupIn: 20)
        let later = try await RideETATests.ride(w, pickupIn: 180)
        let series = UUID()
        try await w.f.database.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET series_id = \(series) WHERE id IN (\(boarded), \(later))")
        }
        try await RideETATests.tap(w, shift, boarded, "pickup", "arrived")
        try await RideETATests.tap(w, shift, boarded, "pickup", "boarded")
        try await w.f.application().test(.router) { client in
            // The confirmation counts only what the cancel will cancel: not the ride she is on.
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let confirm = try await client.web("/series/\(series)/cancel", jar: &jar)
            #expect(
                confirm.body.contains("This cancels its one upcoming ride of this weekly series")
                    && confirm.body.contains(">Yes, cancel it</button>"), "\(confirm.body)")
            let token = try await client.token("ann1", "correct horse battery")
            try await client.execute(uri: "/v1/series/\(series)/cancel", method: .post, headers: Wire.bearer(token)) { response in
                #expect(response.status == .ok)
                #expect(Wire.object(response.body)["cancelled"] as? Int == 1)
            }
            #expect(try await Self.status(w, boarded) == "approved")
            #expect(try await Self.status(w, later) == "cancelled")
            // The driver undid the boarding (a mistaken tap): she may cancel again.
            try await w.f.database.pool.withConnection { conn in
                try conn.execute("UPDATE stop_taps SET undone_at = \(w.f.clock.now) WHERE ride_id = \(boarded) AND action = 'boarded'")
            }
            try await client.execute(uri: "/v1/rides/\(boarded)/cancel", method: .post, headers: Wire.bearer(token)) { response in
                #expect(response.status == .ok)
            }
            #expect(try await Self.status(w, boarded) == "cancelled")
        }
        await w.f.close()
    }
}
