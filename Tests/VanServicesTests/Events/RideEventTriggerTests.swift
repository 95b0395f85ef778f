import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("Triggers: every change to a ride becomes an event, from every writer")
struct RideEventTriggerTests {
    @Test func everyKindOfChangeFromRawSQL() async throws {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 120)
        try await f.sql("UPDATE rides SET status = 'approved', decided_by = 'dispatcher' WHERE id = \(ride)")
        try await f.sql(
            "UPDATE rides SET pickup_at = pickup_at + interval '15 minutes', estimated_dropoff_at = estimated_dropoff_at + interval '15 minutes', window_start = window_start + interval '15 minutes', window_end = window_end + interval '15 minutes' WHERE id = \(ride)"
        )
        try await f.sql("UPDATE rides SET reminded_at = now() WHERE id = \(ride)")
        try await f.sql("UPDATE rides SET note = 'ramp please' WHERE id = \(ride)")
        try await f.sql("UPDATE rides SET note = 'ramp please' WHERE id = \(ride)")  // no change: no event
        try await f.sql("UPDATE rides SET status = 'completed' WHERE id = \(ride)")
        try await f.sql("DELETE FROM rides WHERE id = \(ride)")
        #expect(try await f.kinds(ride) == ["created", "approved", "moved", "reminder", "updated", "completed", "deleted"])

        let rejected = try await f.insertRide(pickupIn: 300, van: 2)
        try await f.sql("UPDATE rides SET status = 'rejected', reason = 'no van free' WHERE id = \(rejected)")
        let byService = try await f.insertRide(pickupIn: 400, status: "approved", van: 3)
        try await f.sql("UPDATE rides SET status = 'cancelled', cancelled_by = 'service', reason = 'snow' WHERE id = \(byService)")
        let noShow = try await f.insertRide(pickupIn: 500, status: "approved")
        try await f.sql("UPDATE rides SET status = 'no_show' WHERE id = \(noShow)")
        #expect(try await f.kinds(rejected) == ["created", "rejected"])
        #expect(try await f.kinds(byService) == ["created", "cancelled_by_service"])
        #expect(try await f.kinds(noShow) == ["created", "no_show"])

        // The payload carries the ride's state and what it was before.
        let payload = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT payload::text FROM ride_events WHERE ride_id = \(rejected) AND kind = 'rejected'").first!.decode(
                String.self, at: 0)
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect((object["ride"] as? [String: Any])?["status"] as? String == "rejected")
        #expect((object["ride"] as? [String: Any])?["reason"] as? String == "no van free")
        #expect((object["previous"] as? [String: Any])?["status"] as? String == "pending")
        #expect(object["pickup_short"] as? String == "SCL")
        #expect(object["van"] as? String == "Van 2")

        // Deliveries: webhook and log for every event; the rider only for what they must hear.
        #expect(
            try await f.count(
                "SELECT count(*) FROM ride_events e WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.sink = 'webhook')")
                == 0)
        #expect(
            try await f.count(
                "SELECT count(*) FROM ride_events e WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.sink = 'log')") == 0)
        let riderKinds = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT DISTINCT e.kind FROM deliveries d JOIN ride_events e ON e.id = d.event_id WHERE d.sink = 'rider' ORDER BY 1").map {
                try $0.decode(String.self, at: 0)
            }
        }
        #expect(riderKinds == ["approved", "cancelled_by_service", "moved", "no_show", "rejected", "reminder"])
        await f.db.close()
    }

    @Test func theBookingServiceAndTheRiderCancelProduceEventsToo() async throws {
        let f = try await EventFixture()
        let places = try await PlaceStore(pool: f.db.pool).list()
        let scl = try #require(places.first { $0.name == "Sterling Chemistry Lab" })
        let dport = try #require(places.first { $0.name == "Davenport College" })
        let booking = BookingService(pool: f.db.pool, timeZone: f.zone)
        // Monday 2026-11-30 15:00 New York.
        let pickupAt = Date(timeIntervalSince1970: 1_796_068_800)
        let request = NewRide(
            id: .timeOrdered(at: pickupAt), netID: try NetID("ann1"),
            pickup: RideEndpoint(coordinate: scl.coordinate, placeID: scl.id, placeName: scl.name),
            dropoff: RideEndpoint(coordinate: dport.coordinate, placeID: dport.id, placeName: dport.name), pickupAt: pickupAt)
        guard case .booked(let ride) = try await booking.book(request, now: f.now) else { Issue.record("not booked"); return }
        _ = try await RiderRides(pool: f.db.pool).cancel(ride.id, for: try NetID("ann1"), now: f.now, lateWithin: 3_600)
        #expect(try await f.kinds(ride.id) == ["created", "cancelled_by_rider"])
        await f.db.close()
    }

    @Test func aMovedRideIsRemindedAgainForItsNewTime() async throws {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 10, status: "approved")
        try await f.loop().runOnce(now: f.now)
        try await f.sql(
            "UPDATE rides SET pickup_at = pickup_at + interval '1 hour', estimated_dropoff_at = estimated_dropoff_at + interval '1 hour', window_start = window_start + interval '1 hour', window_end = window_end + interval '1 hour' WHERE id = \(ride)"
        )
        #expect(try await f.count("SELECT count(*) FROM rides WHERE reminded_at IS NULL AND id = \(ride)") == 1)
        await f.db.close()
    }

    @Test func aReplanWritesNoEventAndTheTriggerWatchesEveryOtherColumn() async throws {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 120)
        // A re-plan inside the promise (the planned stops only): no event, no delivery.
        try await f.sql(
            "UPDATE rides SET pickup_at = pickup_at + interval '1 minute', estimated_dropoff_at = estimated_dropoff_at + interval '1 minute', updated_at = now() WHERE id = \(ride)"
        )
        #expect(try await f.kinds(ride) == ["created"])
        // Any other column still makes news: the trigger's list is every column of rides but the
        // three a re-plan writes (sql/0024), the dispatcher's van pin (sql/0036: the move that
        // pins is the event; the pin and its release are in the audit log), and the negotiation the
        // booking records in its own transaction (sql/0039: the ride's creation is the news), and a way back's outbound, written at insert (sql/0041). A column added later
        // must be added to it too, or named here with why.
        try await f.sql("UPDATE rides SET note = 'ramp at the side door' WHERE id = \(ride)")
        #expect(try await f.kinds(ride) == ["created", "updated"])
        let missing = try await f.db.pool.withConnection { conn in
            try conn.query(
                """
                SELECT a.attname FROM pg_attribute a
                WHERE a.attrelid = 'rides'::regclass AND a.attnum > 0 AND NOT a.attisdropped
                  AND a.attname NOT IN ('pickup_at', 'estimated_dropoff_at', 'updated_at', 'van_pinned_by', 'negotiated_from', 'negotiated_minutes', 'return_of')
                  AND a.attnum <> ALL (SELECT unnest(t.tgattr::int2[]) FROM pg_trigger t WHERE t.tgrelid = 'rides'::regclass AND t.tgname = 'rides_events')
                ORDER BY a.attnum
                """
            ).map { try $0.decode(String.self, at: 0) }
        }
        #expect(missing == [], "rides_events does not fire on updates of \(missing)")
        await f.db.close()
    }
}
