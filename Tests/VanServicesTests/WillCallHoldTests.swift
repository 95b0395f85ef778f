import Foundation
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import VanServices

/// Room kept for open will-calls (``WillCallHolds``, `willCallHoldMinutes`), through the real
/// booking service and database: one van carrying one rider at a time.
@Suite("Room kept for will-calls")
struct WillCallHoldTests {
    /// 6.5 km north of campus: about 27 minutes each way from SML, so a ride there takes the one
    /// van for most of an hour.
    let far = try! Coordinate(latitude: 41.3700, longitude: -72.9200)

    func farRide(_ f: BookingFixture, _ rider: Int, at: Date) -> NewRide {
        var ride = f.request(rider, at: at)
        ride.pickup = RideEndpoint(coordinate: f.sml, placeName: "SML")
        ride.dropoff = RideEndpoint(coordinate: far, placeName: "North")
        return ride
    }

    /// Rider 0's ride to SML at 9:00 (there about 9:05), her way back a will-call.
    func bookThere(_ f: BookingFixture) async throws -> Ride {
        let there = f.request(0, at: f.monday(9))
        guard case .booked(let ride)? = try await f.booking.bookSeries([there], now: f.now, willCall: there.dropoff).first else {
            throw ValidationError(field: "there", reason: "the ride there should book")
        }
        return ride
    }

    func hold(_ f: BookingFixture, _ minutes: Int?) async throws {
        try await f.db.pool.withConnection { conn in
            if let minutes {
                try conn.execute("UPDATE settings SET value = value || jsonb_build_object('willCallHoldMinutes', \(minutes)) WHERE key = 'scheduler'")
            } else {
                try conn.execute("UPDATE settings SET value = value - 'willCallHoldMinutes' WHERE key = 'scheduler'")
            }
        }
    }

    @Test func aBookingMayNotTakeTheLastRoomOfAnOpenWillCall() async throws {
        let f = try await BookingFixture()
        try await hold(f, 60)
        // She will call; room is kept for her from about 10:05.
        let there = try await bookThere(f)
        let expected = there.estimatedDropoffAt.addingTimeInterval(3_600)

        // A ride north at 10:05 would keep the one van away from SML until about 11:00: refused,
        // with the nearest times that leave her room, and nothing written.
        let north = farRide(f, 1, at: f.monday(10, 5))
        guard case .refused(let refusal, _)? = try await f.booking.bookSeries([north], now: f.now).first else {
            Issue.record("a ride that takes her room should be refused"); return
        }
        #expect(refusal.refusalCode == "occupied")
        let earlier = try #require(refusal.suggestions.first { $0.asked < north.pickupAt })
        let later = try #require(refusal.suggestions.first { $0.asked > north.pickupAt })
        // The round trip north is about 55 minutes and her wait 30: the van must leave some 25
        // minutes before she is expected, to be back by the end of her wait.
        #expect(earlier.asked <= expected.addingTimeInterval(-20 * 60), "back before her wait is over: \(earlier.asked)")
        #expect(later.asked >= expected, "after she can have been picked up: \(later.asked)")
        #expect(try await f.count() == 1)
        #expect(try await f.count("SELECT count(*) FROM booking_refusals") == 1, "kept for the denials report")

        // The later time offered books as offered: her room is before it.
        var atLater = farRide(f, 1, at: later.asked)
        atLater.id = .timeOrdered(at: f.now)
        guard case .booked(let booked)? = try await f.booking.bookSeries([atLater], now: f.now).first else {
            Issue.record("the later time offered should book"); return
        }
        #expect(booked.pickupAt == later.pickupAt)
        await f.db.close()
    }

    @Test func aWillCallNoVanCouldTakeHoldsNothingUp() async throws {
        let f = try await BookingFixture()
        _ = try await bookThere(f)
        // Booked before the office kept room, the very ride refused above books: the van goes north
        // at 10:05, over her whole wait.
        guard case .booked = try await f.booking.bookSeries([farRide(f, 1, at: f.monday(10, 5))], now: f.now).first else {
            Issue.record("the ride north should book"); return
        }
        try await hold(f, 60)
        // Her room is gone already, so a ride that changes nothing for her books.
        guard case .booked = try await f.booking.bookSeries([farRide(f, 2, at: f.monday(11, 5))], now: f.now).first else {
            Issue.record("a will-call with no room left holds nothing up"); return
        }
        await f.db.close()
    }

    @Test func herOwnWayBackTakesTheRoomKeptForIt() async throws {
        let f = try await BookingFixture()
        try await hold(f, 60)
        let there = try await bookThere(f)
        try await f.db.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET status = 'approved' WHERE id = \(there.id)")
            try conn.execute("UPDATE rides SET status = 'completed' WHERE id = \(there.id)")
        }
        guard case .booked(let back) = try await f.booking.ready(there.id, netID: there.netID, actor: "rider0", now: f.monday(10)) else {
            Issue.record("her call should be booked in the room kept for it"); return
        }
        #expect(back.returnOf == there.id)
        // Her call is answered, so nothing is held for it any more: a ride north right after her
        // way back (which a room still kept from 10:05 to 10:35 would have refused) books.
        guard case .booked = try await f.booking.bookSeries([farRide(f, 1, at: f.monday(10, 15))], now: f.now).first else {
            Issue.record("no room is kept once she has called"); return
        }
        await f.db.close()
    }
}
