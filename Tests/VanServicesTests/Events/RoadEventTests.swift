import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("Road taps as ride events")
struct RoadEventTests {
    @Test func tapsWriteEventsWithTheRoadObjectAndTheRiderHearsTheVanIsHere() async throws {
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        let ride = try await f.insertRide(pickupIn: 10, status: "approved")
        try await f.sql("INSERT INTO riders (net_id, password_hash, role) VALUES ('dee1', 'x', 'driver')")
        let road = Road(pool: f.db.pool, clock: f.clock, timeZone: f.zone)
        let dee = try NetID("dee1")
        let shift = try await road.shifts.start(driver: dee, vanID: 1)
        func tap(_ stop: StopKind, _ action: TapAction, key: UUID = UUID()) async throws -> TapResult {
            try await road.taps.tap(driver: dee, TapRequest(tapKey: key, rideID: ride, stop: stop, action: action,
                                                          position: try PositionFix(lat: 41.3163, lon: -72.9224, accuracyMeters: 9)))
        }
        f.clock.advance(by: 600)
        _ = try await tap(.pickup, .arrived)
        _ = try await tap(.pickup, .boarded)
        _ = try await tap(.dropoff, .arrived)
        let dropKey = UUID()
        _ = try await tap(.dropoff, .droppedOff, key: dropKey)
        _ = try await road.taps.undo(driver: dee, tapKey: dropKey)
        // A double tap writes no event.
        _ = try await tap(.pickup, .arrived)
        #expect(try await f.kinds(ride) == ["created", "arrived", "boarded", "arrived", "completed", "tap_undone"])
        let roads = try await f.db.pool.withConnection { conn in
            try conn.query("""
                SELECT kind, payload->'road'->>'stop', payload->'road'->>'action', payload->'road'->>'driver', payload->'road'->>'van',
                       (payload->'road'->>'shift')::bigint, payload->>'version', payload->>'actor'
                FROM ride_events WHERE ride_id = \(ride) AND kind <> 'created' ORDER BY id
                """).map { row in
                [try row.decode(String.self, at: 0), try row.decode(String.self, at: 1), try row.decode(String.self, at: 2), try row.decode(String.self, at: 3),
                 try row.decode(String.self, at: 4), String(try row.decode(Int64.self, at: 5)), try row.decode(String.self, at: 6), try row.decode(String.self, at: 7)]
            }
        }
        let van = shift.vanName, id = String(shift.id)
        #expect(roads == [
            ["arrived", "pickup", "arrived", "dee1", van, id, "1", "dee1"],
            ["boarded", "pickup", "boarded", "dee1", van, id, "1", "dee1"],
            ["arrived", "dropoff", "arrived", "dee1", van, id, "1", "dee1"],
            ["completed", "dropoff", "dropped_off", "dee1", van, id, "1", "dee1"],
            ["tap_undone", "dropoff", "dropped_off", "dee1", van, id, "1", "dee1"],
        ])
        _ = try await f.loop(receiver.settings()).runOnce(now: f.now)
        // The rider hears of the arrival at her pickup only.
        #expect(try await f.inbox("ann1") == ["The van is here at SCL."])
        // A road event's delivery carries exactly the documented fields, `road` included.
        let documented = try WebhookPayloadTests.documentedFields().filter { $0 != "late" && !$0.hasPrefix("late.") }  // `late` only on late events
        let arrived = try #require(receiver.deliveries.first { $0.body["kind"] == "arrived" })
        let sent = Set(arrived.body.keys)
        #expect(documented.subtracting(sent).isEmpty, "documented but not sent: \(documented.subtracting(sent).sorted())")
        #expect(sent.subtracting(documented).isEmpty, "sent but not documented: \(sent.subtracting(documented).sorted())")
        receiver.stop()
        await f.db.close()
    }

    @Test func aNoShowReachesTheRiderOnceWithWhatToDo() async throws {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 10, status: "approved")
        try await f.sql("INSERT INTO riders (net_id, password_hash, role) VALUES ('dee1', 'x', 'driver')")
        let road = Road(pool: f.db.pool, clock: f.clock, timeZone: f.zone)
        let dee = try NetID("dee1")
        _ = try await road.shifts.start(driver: dee, vanID: 1)
        func tap(_ action: TapAction) async throws -> TapResult {
            try await road.taps.tap(driver: dee, TapRequest(tapKey: UUID(), rideID: ride, stop: .pickup, action: action, position: nil))
        }
        // 7:10 AM the van is at SCL; after the wait the driver taps No-show at 7:15 AM.
        f.clock.advance(by: 600)
        _ = try await tap(.arrived)
        f.clock.advance(by: RoadSettings().noShowWait)
        #expect(try await tap(.noShow).rideStatus == .noShow)
        #expect(try await f.kinds(ride) == ["created", "arrived", "no_show"])
        #expect(try await f.count("""
            SELECT count(*) FROM deliveries d JOIN ride_events e ON e.id = d.event_id
            WHERE e.ride_id = \(ride) AND e.kind = 'no_show' AND d.sink = 'rider'
            """) == 1)
        let loop = TriggerLoop(pool: f.db.pool, settings: EventSettings(), timeZone: f.zone, hotline: "203-432-0000",
                               clock: f.clock, logger: TestCluster.quietLogger)
        _ = try await loop.runOnce(now: f.now)
        _ = try await loop.runOnce(now: f.now.addingTimeInterval(60))
        #expect(try await f.inbox("ann1") == [
            "The van is here at SCL.",
            "The van waited for you at SCL until 7:15 AM and had to go on, so your ride to Davenport is marked a no-show. "
                + "If this is wrong, call the office at 203-432-0000.",
        ])
        await f.db.close()
    }
}
