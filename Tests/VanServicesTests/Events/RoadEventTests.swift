import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("Road taps as ride events")
struct RoadEventTests {
    /// A fresh database with ann1's approved ride at 7:10 AM on van 1, and driver dee1 on van 1's shift.
    static func driverOnShift() async throws -> (EventFixture, UUID, Road, NetID) {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 10, status: "approved")
        try await f.sql("INSERT INTO riders (net_id, password_hash, role) VALUES ('dee1', 'x', 'driver')")
        let road = Road(pool: f.db.pool, clock: f.clock, timeZone: f.zone)
        let dee = try NetID("dee1")
        _ = try await road.shifts.start(driver: dee, vanID: 1)
        return (f, ride, road, dee)
    }

    /// `driver`'s tap of `action` at `stop` of `ride`, with a fresh key.
    @discardableResult
    static func tap(_ road: Road, _ driver: NetID, _ ride: UUID, _ stop: StopKind, _ action: TapAction) async throws -> TapResult {
        try await road.taps.tap(driver: driver, TapRequest(tapKey: UUID(), rideID: ride, stop: stop, action: action, position: nil))
    }

    @Test func tapsWriteEventsWithTheRoadObjectAndTheRiderHearsTheVanIsHere() async throws {
        let f = try await EventFixture()
        let receiver = try await WebhookReceiver.start()
        let ride = try await f.insertRide(pickupIn: 10, status: "approved")
        try await f.sql("INSERT INTO riders (net_id, password_hash, role) VALUES ('dee1', 'x', 'driver')")
        let road = Road(pool: f.db.pool, clock: f.clock, timeZone: f.zone)
        let dee = try NetID("dee1")
        let shift = try await road.shifts.start(driver: dee, vanID: 1)
        func tap(_ stop: StopKind, _ action: TapAction, key: UUID = UUID()) async throws -> TapResult {
            try await road.taps.tap(
                driver: dee,
                TapRequest(
                    tapKey: key, rideID: ride, stop: stop, action: action,
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
            try conn.query(
                """
                SELECT kind, payload->'road'->>'stop', payload->'road'->>'action', payload->'road'->>'driver', payload->'road'->>'van',
                       (payload->'road'->>'shift')::bigint, payload->>'version', payload->>'actor'
                FROM ride_events WHERE ride_id = \(ride) AND kind <> 'created' ORDER BY id
                """
            ).map { row in
                [
                    try row.decode(String.self, at: 0), try row.decode(String.self, at: 1), try row.decode(String.self, at: 2),
                    try row.decode(String.self, at: 3),
                    try row.decode(String.self, at: 4), String(try row.decode(Int64.self, at: 5)), try row.decode(String.self, at: 6),
                    try row.decode(String.self, at: 7),
                ]
            }
        }
        let van = shift.vanName, id = String(shift.id)
        #expect(
            roads == [
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
        // `late` only on late events, `standing` only on the no-show policy's
        let documented = try WebhookPayloadTests.documentedFields().filter {
            $0 != "late" && !$0.hasPrefix("late.") && $0 != "standing" && !$0.hasPrefix("standing.")
        }
        let arrived = try #require(receiver.deliveries.first { $0.body["kind"] == "arrived" })
        let sent = Set(arrived.body.keys)
        #expect(documented.subtracting(sent).isEmpty, "documented but not sent: \(documented.subtracting(sent).sorted())")
        #expect(sent.subtracting(documented).isEmpty, "sent but not documented: \(sent.subtracting(documented).sorted())")
        receiver.stop()
        await f.db.close()
    }

    @Test func aNoShowReachesTheRiderOnceWithWhatToDo() async throws {
        let (f, ride, road, dee) = try await Self.driverOnShift()
        func tap(_ action: TapAction) async throws -> TapResult { try await Self.tap(road, dee, ride, .pickup, action) }
        // 7:10 AM the van is at SCL; after the wait the driver taps No-show at 7:15 AM.
        f.clock.advance(by: 600)
        _ = try await tap(.arrived)
        f.clock.advance(by: RoadSettings().noShowWait)
        #expect(try await tap(.noShow).rideStatus == .noShow)
        #expect(try await f.kinds(ride) == ["created", "arrived", "no_show"])
        #expect(
            try await f.count(
                """
                SELECT count(*) FROM deliveries d JOIN ride_events e ON e.id = d.event_id
                WHERE e.ride_id = \(ride) AND e.kind = 'no_show' AND d.sink = 'rider'
                """) == 1)
        let loop = TriggerLoop(
            pool: f.db.pool, settings: EventSettings(), timeZone: f.zone, hotline: "203-432-0000",
            clock: f.clock, logger: TestCluster.quietLogger)
        _ = try await loop.runOnce(now: f.now)
        _ = try await loop.runOnce(now: f.now.addingTimeInterval(60))
        #expect(
            try await f.inbox("ann1") == [
                "The van is here at SCL.",
                "The van waited for you at SCL until 7:15 AM and had to go on, so your ride to Davenport is marked a no-show. "
                    + "If this is wrong, call the office at 203-432-0000.",
            ])
        await f.db.close()
    }

    /// A no-show taken back tells the rider: the driver's own undo inside her window, or, after it,
    /// the dispatcher's audited correction (which can also take back the van's arrival).
    @Test func aNoShowTakenBackIsACorrectionToTheRider() async throws {
        let (f, ride, road, dee) = try await Self.driverOnShift()
        func tap(_ action: TapAction) async throws -> TapResult { try await Self.tap(road, dee, ride, .pickup, action) }
        let loop = TriggerLoop(
            pool: f.db.pool, settings: EventSettings(), timeZone: f.zone, hotline: "203-432-0000",
            clock: f.clock, logger: TestCluster.quietLogger)
        func deliver() async throws {
            _ = try await loop.runOnce(now: f.clock.now)
            _ = try await loop.runOnce(now: f.clock.now.addingTimeInterval(60))
        }
        f.clock.advance(by: 600)
        _ = try await tap(.arrived)
        f.clock.advance(by: RoadSettings().noShowWait)
        // The driver's own undo, inside her window.
        let first = try await tap(.noShow)
        _ = try await road.taps.undo(driver: dee, tapKey: first.tap.tapKey)
        try await deliver()
        let correction = try await f.inbox("ann1").last ?? ""
        #expect(
            correction.hasPrefix("Correction: your ride from SCL to Davenport on ")
                && correction.hasSuffix(" is not a no-show. The mark was taken back, and your ride stands."),
            "\(correction)")
        // Again, and this time the window passes: only the dispatcher can take it back.
        #expect(try await tap(.noShow).rideStatus == .noShow)
        f.clock.advance(by: RoadSettings().undoWindow + 1)
        let corrections = TapCorrection(pool: f.db.pool, clock: f.clock)
        await #expect(throws: TapCorrection.Failure.badReason) {
            try await corrections.correct(ride.uuidString, stop: .pickup, reason: "  ", actor: "dana")
        }
        let outcome = try await corrections.correct(ride.uuidString, stop: .pickup, reason: "She was at the side door", actor: "dana")
        #expect(outcome.undone.action == .noShow && outcome.standing?.action == .arrived && outcome.rideStatus == .approved)
        #expect(try await f.count("SELECT count(*) FROM rides WHERE id = \(ride) AND status = 'approved'") == 1)
        #expect(
            try await f.count(
                """
                SELECT count(*) FROM audit_log WHERE action = 'tap.correct' AND actor = 'dana' AND subject = \(ride.uuidString.lowercased())
                  AND details ->> 'from' = 'no_show' AND details ->> 'to' = 'arrived' AND details ->> 'reason' = 'She was at the side door'
                """) == 1)
        // The arrival too; then nothing stands, and a third correction is refused.
        let second = try await corrections.correct(ride.uuidString, stop: .pickup, reason: "Wrong stop tapped", actor: "dana")
        #expect(second.undone.action == .arrived && second.standing == nil)
        await #expect(throws: TapCorrection.Failure.nothingStands(.pickup)) {
            try await corrections.correct(ride.uuidString, stop: .pickup, reason: "again", actor: "dana")
        }
        try await deliver()
        let inbox = try await f.inbox("ann1")
        #expect(inbox.filter { $0.hasPrefix("Correction: your ride from SCL") }.count == 2, "\(inbox)")
        #expect(inbox.last == "Correction: the van is not at SCL yet. You will be told when it arrives.", "\(inbox)")
        await f.db.close()
    }

    /// A boarding rests on nothing later until the drop-off: a correction of the pickup under a
    /// standing drop-off tap is refused, and names the tap to correct first.
    @Test func aCorrectionUnderALaterTapIsRefused() async throws {
        let (f, ride, road, dee) = try await Self.driverOnShift()
        f.clock.advance(by: 600)
        for (stop, action) in [(StopKind.pickup, TapAction.arrived), (.pickup, .boarded), (.dropoff, .arrived)] {
            try await Self.tap(road, dee, ride, stop, action)
        }
        await #expect(throws: TapCorrection.Failure.laterFirst(.arrived, .dropoff)) {
            try await TapCorrection(pool: f.db.pool, clock: f.clock).correct(ride.uuidString, stop: .pickup, reason: "test", actor: "dana")
        }
        #expect(try await f.count("SELECT count(*) FROM stop_taps WHERE ride_id = \(ride) AND undone_at IS NULL") == 3)
        await f.db.close()
    }

    /// Her ride put on another van: not news before her reminder; after it, she is told the van's
    /// name, since she looks for it at the curb.
    @Test func aRidePutOnAnotherVanAfterItsReminderTellsTheRiderTheVan() async throws {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 30, status: "approved")
        let van2 = try await f.db.pool.withConnection { try $0.query("SELECT name FROM vans WHERE id = 2").first!.decode(String.self, at: 0) }
        try await f.sql("UPDATE rides SET van_id = 2 WHERE id = \(ride)")
        try await f.sql("UPDATE rides SET reminded_at = \(f.now) WHERE id = \(ride)")
        try await f.sql("UPDATE rides SET van_id = 1 WHERE id = \(ride)")
        try await f.sql("UPDATE rides SET van_id = 2 WHERE id = \(ride)")
        #expect(try await f.kinds(ride) == ["created", "reassigned", "reminder", "reassigned", "reassigned"])
        #expect(
            try await f.count(
                """
                SELECT count(*) FROM deliveries d JOIN ride_events e ON e.id = d.event_id
                WHERE e.ride_id = \(ride) AND e.kind = 'reassigned' AND d.sink = 'rider'
                """) == 2, "the two after the reminder")
        let loop = TriggerLoop(pool: f.db.pool, settings: EventSettings(), timeZone: f.zone, clock: f.clock, logger: TestCluster.quietLogger)
        _ = try await loop.runOnce(now: f.now)
        _ = try await loop.runOnce(now: f.now.addingTimeInterval(60))
        let inbox = try await f.inbox("ann1")
        #expect(
            inbox.last?.hasPrefix("Your ride from SCL to Davenport on ") == true && inbox.last?.hasSuffix(" is now on \(van2).") == true, "\(inbox)")
        await f.db.close()
    }
}
