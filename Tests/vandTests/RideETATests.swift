import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanScheduler
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// The rider sees her van on the road: `eta` on `GET /v1/rides/{id}` only from the ETA lead before
/// her window until she is on board, only for her own ride; live on her stream over a real socket.
/// Positions and taps are written with SQL into the road's tables, as its services write them.
@Suite("The rider's ETA: on her ride and on her stream")
struct RideETATests {
    static let scl = try! Coordinate(latitude: 41.31633, longitude: -72.92241)
    static let davenport = try! Coordinate(latitude: 41.30917, longitude: -72.93139)

    /// ann1 and bob2 can sign in; a driver's shift is open on Van 1.
    static func world() async throws -> (BookingWorld, shift: Int64) {
        let w = try await BookingWorld(vans: 2)
        let shift = try await w.f.database.pool.withConnection { conn in
            try conn.execute("INSERT INTO riders (net_id, password_hash, role) VALUES ('drv1', 'x', 'driver')")
            return try conn.query(
                """
                INSERT INTO shifts (driver_net_id, van_id, started_at) SELECT 'drv1', id, \(w.f.clock.now) FROM vans WHERE name = 'Van 1' RETURNING id
                """
            ).first!.decode(Int64.self, at: 0)
        }
        return (w, shift)
    }

    /// An approved ride of `rider` on Van 1 from SCL to Davenport, promised a pickup from `minutes` on.
    static func ride(_ w: BookingWorld, rider: String = "ann1", pickupIn minutes: Double) async throws -> UUID {
        let id = UUID(), pickup = w.f.clock.now.addingTimeInterval(minutes * 60)
        try await w.f.database.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO rides (id, net_id, kind, pickup_place_id, pickup_lat, pickup_lon, dropoff_place_id, dropoff_lat, dropoff_lon,
                                   requested_at, pickup_at, estimated_dropoff_at, status, van_id, promise, window_start, window_end)
                SELECT \(id), \(rider), 'scheduled', p.id, p.lat, p.lon, d.id, d.lat, d.lon, \(w.f.clock.now), \(pickup),
                       \(pickup.addingTimeInterval(600)), 'approved', (SELECT id FROM vans WHERE name = 'Van 1'), 'pickup', \(pickup),
                       \(pickup.addingTimeInterval(900))
                FROM places p, places d WHERE p.name = 'Sterling Chemistry Lab' AND d.name = 'Davenport College'
                """)
        }
        return id
    }

    static func position(_ w: BookingWorld, _ at: Coordinate) async throws {
        try await w.f.database.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO van_positions (van_id, at, lat, lon, source)
                SELECT id, \(w.f.clock.now), \(at.latitude), \(at.longitude), 'tracker' FROM vans WHERE name = 'Van 1'
                ON CONFLICT (van_id) DO UPDATE SET at = EXCLUDED.at, lat = EXCLUDED.lat, lon = EXCLUDED.lon
                """)
        }
    }

    static func tap(_ w: BookingWorld, _ shift: Int64, _ ride: UUID, _ stop: String, _ action: String) async throws {
        try await w.f.database.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
                VALUES (\(UUID()), \(shift), \(ride), \(stop), \(action), \(w.f.clock.now))
                """)
        }
    }

    /// The model's minutes from Davenport to SCL, rounded.
    static var minutesFromDavenport: Int { Int((TripEstimator().deadhead(from: davenport, to: scl) / 60).rounded()) }

    @Test func herETAShowsFromTheLeadUntilSheIsOnBoardAndOnlyToHer() async throws {
        let (w, shift) = try await Self.world()
        let ann = try await Self.ride(w, pickupIn: 40)
        try await Self.position(w, Self.davenport)
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            // 40 minutes before her window (the lead is 30): no `eta`.
            var answer = try await client.get("/v1/rides/\(ann)", token)
            #expect(answer.status == .ok)
            #expect(answer.body["eta"] == nil)

            w.f.clock.advance(by: 11 * 60)
            try await Self.position(w, Self.davenport)
            answer = try await client.get("/v1/rides/\(ann)", token)
            var eta = try #require(answer.body["eta"] as? [String: Any])
            // The van is a few minutes away and her window opens in 29: it waits at her stop for it.
            #expect(Self.minutesFromDavenport < 29)
            #expect(eta["minutes"] as? Int == 29)
            #expect(eta["stops_before"] as? Int == 0)
            #expect(eta["van_here"] as? Bool == false)
            #expect(eta["late_minutes"] as? Int == 0)
            #expect(eta["message"] as? String == "The van will be at your stop when your window opens, in about 29 minutes, your stop is next.")
            #expect((eta["at"] as? String)?.hasSuffix("-05:00") == true)

            // Her window open, the van still at Davenport: its arrival is her ETA.
            w.f.clock.advance(by: 30 * 60)
            try await Self.position(w, Self.davenport)
            answer = try await client.get("/v1/rides/\(ann)", token)
            eta = try #require(answer.body["eta"] as? [String: Any])
            let minutes = Self.minutesFromDavenport
            #expect(eta["minutes"] as? Int == minutes)
            #expect(eta["message"] as? String == "The van is about \(minutes) minutes away, your stop is next.")
            #expect((eta["at"] as? String)?.hasSuffix("-05:00") == true)
            // Another rider's ride: 404 as ever, and no word of the van.
            let other = try await client.get("/v1/rides/\(ann)", bob)
            #expect(other.status == .notFound)
            #expect(!other.raw.contains(#""eta""#))

            // The van at her pickup, then she is on board.
            try await Self.tap(w, shift, ann, "pickup", "arrived")
            answer = try await client.get("/v1/rides/\(ann)", token)
            #expect((answer.body["eta"] as? [String: Any])?["van_here"] as? Bool == true)
            #expect((answer.body["eta"] as? [String: Any])?["message"] as? String == "The van is here.")
            try await Self.tap(w, shift, ann, "pickup", "boarded")
            answer = try await client.get("/v1/rides/\(ann)", token)
            #expect(answer.status == .ok)
            #expect(answer.body["eta"] == nil)
        }
        await w.f.close()
    }

    @Test func theRidePageSaysWhereHerVanIs() async throws {
        let (w, _) = try await Self.world()
        let ann = try await Self.ride(w, pickupIn: 2)
        try await Self.position(w, Self.davenport)
        try await w.f.application().test(.router) { client in
            var jar = WebJar()
            _ = try await client.webSignIn("ann1", jar: &jar)
            let page = try await client.web("/rides/\(ann)", jar: &jar).body
            #expect(page.contains(#"role="status" aria-live="polite""#))
            #expect(Self.minutesFromDavenport > 2)
            #expect(page.contains("The van is about \(Self.minutesFromDavenport) minutes away, your stop is next."))
        }
        await w.f.close()
    }

    @Test func aPositionWrittenReachesHerStreamOverARealSocket() async throws {
        let (w, shift) = try await Self.world()
        let ann = try await Self.ride(w, pickupIn: 20)
        let bobs = try await Self.ride(w, rider: "bob2", pickupIn: 5)
        try await w.f.application().test(.live) { client in
            let port = try #require(client.port)
            let token = try await client.token("ann1", "correct horse battery")
            let stream = try await EventStreamReader.open(port: port, token: token, lastEventID: nil)
            // The van 1 km north of Bob's pickup (SCL): Bob first, then her.
            let north = try Coordinate(latitude: Self.scl.latitude + 1_000 / Coordinate.earthRadius * 180 / .pi, longitude: Self.scl.longitude)
            try await Self.position(w, north)
            let annID = ann.uuidString.lowercased()
            let first = try await stream.waitForETA { $0["ride_id"] as? String == annID && $0["eta"] is [String: Any] }
            let eta = try #require(first["eta"] as? [String: Any])
            #expect(eta["stops_before"] as? Int == 2)
            // Only her ride reaches her stream.
            #expect(try await stream.waitForETA { _ in true }["ride_id"] as? String == annID)
            _ = bobs

            // On board: the next position takes it off her page.
            try await Self.tap(w, shift, ann, "pickup", "arrived")
            try await Self.tap(w, shift, ann, "pickup", "boarded")
            try await Self.position(w, Self.scl)
            _ = try await stream.waitForETA { $0["ride_id"] as? String == annID && $0["eta"] is NSNull }
            stream.close()
        }
        await w.f.close()
    }
}
