import Foundation
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import VanServices

/// The booking keeps what a request came to (49 CFR 37.131(b)), and the report counts it: on a
/// real database where a van carries one rider at a time.
@Suite("Negotiated times and denials, recorded and counted")
struct NegotiationTests {
    func tally(_ f: BookingFixture, at now: Date) async throws -> DenialTally {
        let day = try LocalDate("2026-11-23")
        return try await DenialReport.load(pool: f.db.pool, from: day, to: day, timeZone: f.zone, now: now)
    }

    func refusals(_ f: BookingFixture) async throws -> [(trip: String, answered: UUID?)] {
        try await f.db.pool.withConnection { conn in
            try conn.query("SELECT trip_key, answered_by FROM booking_refusals ORDER BY id").map {
                (try $0.decode(String.self, "trip_key"), try $0.decode(UUID?.self, "answered_by"))
            }
        }
    }

    @Test func aSuggestionTakenWithinTenMinutesIsNegotiatedWithTheMinutesItMoved() async throws {
        let f = try await BookingFixture()
        guard case .booked = try await f.booking.book(f.request(0, at: f.monday(16, 30)), now: f.now) else { Issue.record("no first ride"); return }
        guard case .refused(let feasibility, _) = try await f.booking.book(f.request(1, at: f.monday(16, 30)), now: f.now),
            let later = feasibility.suggestions.last
        else { Issue.record("expected a refusal with suggestions"); return }
        let retry = try await f.booking.book(f.request(1, at: later.asked), now: f.now.addingTimeInterval(240))
        guard case .booked(let ride) = retry else { Issue.record("the suggestion was not bookable: \(retry)"); return }
        let moved = Int((later.asked.timeIntervalSince(f.monday(16, 30)) / 60).rounded())
        let row = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT negotiated_from, negotiated_minutes FROM rides WHERE id = \(ride.id)").first!
        }
        #expect(try row.decode(Date?.self, "negotiated_from") == f.monday(16, 30))
        #expect(try row.decode(Int?.self, "negotiated_minutes") == moved)
        #expect(try await refusals(f).map(\.answered) == [ride.id])
        #expect(try await refusals(f).first?.trip == "at:41.3163,-72.9224>at:41.3111,-72.9288")
        let counted = try await tally(f, at: f.now.addingTimeInterval(3600))
        #expect(counted.total.requests == 2)
        #expect(counted.total.negotiated == 1 && counted.total.negotiatedMinutesMax == abs(moved))
        #expect(counted.total.denials == 0)
        #expect(counted.hours.map(\.hour) == [16])
        await f.db.close()
    }

    @Test func aRefusalWithNoRideTenMinutesOnIsADenialWithItsReason() async throws {
        let f = try await BookingFixture()
        _ = try await f.booking.book(f.request(0, at: f.monday(16, 30)), now: f.now)
        _ = try await f.booking.book(f.request(1, at: f.monday(16, 30)), now: f.now)
        _ = try await f.booking.book(f.request(1, at: f.monday(16, 30)), now: f.now.addingTimeInterval(120))  // asked again
        #expect(try await tally(f, at: f.now.addingTimeInterval(300)).total.denials == 0)  // she may still book
        let counted = try await tally(f, at: f.now.addingTimeInterval(900))
        #expect(counted.total.requests == 2 && counted.total.denials == 1)
        #expect(counted.denials.first?.attempts == 2)
        #expect(counted.denials.first?.reason == "occupied")
        #expect(counted.denials.first?.netID == "rider1")
        #expect(counted.denials.first?.trip.contains("→") == true)
        // Booking the trip 15 minutes after the last refusal does not answer it: she went away.
        let late = try await f.booking.book(f.request(1, at: f.monday(18, 0)), now: f.now.addingTimeInterval(1020))
        guard case .booked = late else { Issue.record("expected a booking, got \(late)"); return }
        let after = try await tally(f, at: f.now.addingTimeInterval(3600))
        #expect(after.total.requests == 3 && after.total.denials == 1)
        await f.db.close()
    }

    @Test func aRideBookedMoreThanAnHourFromTheTimeAskedOrRejectedIsADenial() async throws {
        let f = try await BookingFixture()
        _ = try await f.booking.book(f.request(0, at: f.monday(16, 30)), now: f.now)
        _ = try await f.booking.book(f.request(1, at: f.monday(16, 30)), now: f.now)
        guard case .booked(let moved) = try await f.booking.book(f.request(1, at: f.monday(18, 0)), now: f.now.addingTimeInterval(60)) else {
            Issue.record("expected a booking at 6 PM"); return
        }
        guard case .booked(let other) = try await f.booking.book(f.request(2, at: f.monday(10, 0)), now: f.now) else {
            Issue.record("expected a booking at 10 AM"); return
        }
        let dispatch = DispatchService(pool: f.db.pool, timeZone: f.zone)
        _ = try await dispatch.reject(other.id.uuidString, reason: "outside the service area", actor: "dana", now: f.now)
        let counted = try await tally(f, at: f.now.addingTimeInterval(3600))
        #expect(counted.total.requests == 3)
        #expect(counted.total.denials == 2)
        #expect(Set(counted.denials.map(\.reason)) == ["moved_over_an_hour", "rejected_by_dispatcher"])
        #expect(counted.denials.first { $0.reason == "moved_over_an_hour" }?.ref == moved.ref.rawValue)
        // The moved ride counts at the hour she asked first (16:00), not the hour it was booked.
        #expect(counted.hours.first { $0.hour == 16 }?.denials == 1)
        #expect(counted.hours.first { $0.hour == 18 } == nil)
        await f.db.close()
    }

    @Test func aRequestOnAClosedDayIsRefusedButNotADenial() async throws {
        let f = try await BookingFixture()
        try await f.db.pool.withConnection { conn in
            try conn.execute("INSERT INTO closures (day, reason, added_by) VALUES ('2026-11-23', 'Thanksgiving week', 'test')")
        }
        let outcome = try await f.booking.book(f.request(1, at: f.monday(10, 0)), now: f.now)
        guard case .refused(let feasibility, _) = outcome, feasibility.refusalCode == "closed" else {
            Issue.record("expected a closed day, got \(outcome)"); return
        }
        #expect(try await refusals(f).count == 1)
        #expect(try await tally(f, at: f.now.addingTimeInterval(3600)).total.denials == 0)
        await f.db.close()
    }
}
