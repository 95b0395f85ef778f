import Foundation
import Testing
import VanDomain
import VanPostgres
import VanTestSupport
@testable import VanServices

/// Will-call ways back ("I'll call when I'm ready"), through the real booking service and database:
/// one van carrying one rider at a time, promises exact.
@Suite("Will-call ways back")
struct WillCallTests {
    /// Books rider `rider`'s ride there at `at` with a will-call way back from its drop-off.
    func bookThere(_ f: BookingFixture, _ rider: Int, at: Date) async throws -> Ride {
        let there = f.request(rider, at: at)
        let outcomes = try await f.booking.bookSeries([there], now: f.now, willCall: there.dropoff)
        guard case .booked(let ride)? = outcomes.first else { throw Failure("the ride there was refused: \(outcomes)") }
        return ride
    }

    /// The driver dropped her off: the ride there is over.
    func dropOff(_ f: BookingFixture, _ ride: Ride) async throws {
        try await f.db.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET status = 'approved' WHERE id = \(ride.id)")
            try conn.execute("UPDATE rides SET status = 'completed' WHERE id = \(ride.id)")
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String; init(_ d: String) { description = d } }

    @Test func sheSaysSheIsReadyAndTheWayBackIsBookedFromWhereTheRideLeftHer() async throws {
        let f = try await BookingFixture()
        let there = try await bookThere(f, 0, at: f.monday(9))
        #expect(try await f.booking.willCall(of: there.id)?.state == .open)
        #expect(try await f.booking.willCall(of: there.id, netID: try NetID("rider1")) == nil, "another rider sees it")
        await #expect(throws: WillCallError.rideThereNotOver(until: there.promise.riderSpan(maxRideTime: there.maxRideTime).end)) {
            _ = try await f.booking.ready(there.id, netID: there.netID, actor: "rider0", now: f.monday(9, 5))
        }
        try await dropOff(f, there)
        let now = f.monday(11)
        guard case .booked(let back) = try await f.booking.ready(there.id, netID: there.netID, actor: "rider0", now: now) else {
            Issue.record("expected the way back booked"); return
        }
        #expect(back.returnOf == there.id && back.kind == .onDemand)
        #expect(back.pickup == there.dropoff && back.dropoff.coordinate == there.pickup.coordinate)
        #expect(back.pickupAt == now.addingTimeInterval(5 * 60), "picked up after the on-demand lead")
        #expect(back.promise.window.end <= now.addingTimeInterval(30 * 60), "promised within the office's wait")
        let call = try #require(try await f.booking.willCall(of: there.id))
        #expect(call.state == .ready && call.readyAt == now && call.readyBy == "rider0")
        // A second tap gets the same ride back, and books nothing more.
        guard case .already(let again) = try await f.booking.ready(there.id, netID: there.netID, actor: "rider0", now: now) else {
            Issue.record("expected the way back booked already"); return
        }
        #expect(again.id == back.id)
        #expect(try await f.count() == 2)
        await f.db.close()
    }

    @Test func aTakenVanComesWithinTheWaitOrTheCallStaysOpen() async throws {
        let f = try await BookingFixture()
        let there = try await bookThere(f, 0, at: f.monday(9))
        try await dropOff(f, there)
        // The one van carries rider 1 at 11:05 (her ride about 5 minutes): ready at 11:00 waits for it.
        _ = try await f.booking.bookSeries([f.request(1, at: f.monday(11, 5))], now: f.now)
        guard case .booked(let back) = try await f.booking.ready(there.id, netID: there.netID, actor: "rider0", now: f.monday(11)) else {
            Issue.record("expected the way back booked later"); return
        }
        #expect(back.pickupAt > f.monday(11, 5) && back.pickupAt <= f.monday(11, 30), "\(back.pickupAt)")
        #expect(back.promise.window.end <= f.monday(11, 30), "her promise ends within the office's wait")
        // The taken time was asked first: the booking answers it, a negotiation, not a denial.
        #expect(try await f.count("SELECT count(*) FROM booking_refusals WHERE answered_by IS NOT NULL") == 1)

        // An office that promises 5 minutes: the van is taken then, so nothing is booked and her call stays open.
        var rules = BookingRules()
        rules.policy.willCallMaxWait = 5 * 60
        let strict = BookingService(pool: f.db.pool, timeZone: f.zone, rules: rules)
        let other = try await bookThere(f, 2, at: f.monday(9, 30))
        try await dropOff(f, other)
        _ = try await f.booking.bookSeries([f.request(3, at: f.monday(13, 5))], now: f.now)
        guard case .refused(let outcome) = try await strict.ready(other.id, netID: other.netID, actor: "rider2", now: f.monday(13)) else {
            Issue.record("expected no van within the wait"); return
        }
        #expect(outcome.refusalCode == "occupied")
        #expect(try await f.booking.willCall(of: other.id)?.state == .open)
        #expect(try await f.count("SELECT count(*) FROM rides WHERE return_of = \(other.id)") == 0)
        await f.db.close()
    }

    @Test func manyTapsAtOnceBookOneWayBack() async throws {
        let f = try await BookingFixture()
        let there = try await bookThere(f, 0, at: f.monday(9))
        try await dropOff(f, there)
        let outcomes = try await withThrowingTaskGroup(of: ReadyOutcome.self) { group in
            for _ in 0..<8 {
                group.addTask { try await f.booking.ready(there.id, netID: there.netID, actor: "rider0", now: f.monday(11)) }
            }
            return try await group.reduce(into: [ReadyOutcome]()) { $0.append($1) }
        }
        let booked = outcomes.compactMap { if case .booked(let ride) = $0 { ride.id } else { nil } }
        let already = outcomes.compactMap { if case .already(let ride) = $0 { ride.id } else { nil } }
        #expect(booked.count == 1 && already.count == 7 && Set(already) == Set(booked), "\(outcomes)")
        #expect(try await f.count("SELECT count(*) FROM rides WHERE return_of = \(there.id)") == 1)
        await f.db.close()
    }

    @Test func cancellingTheRideThereWithItsReturnCallsItOff() async throws {
        let f = try await BookingFixture()
        let rides = RiderRides(pool: f.db.pool)
        let kept = try await bookThere(f, 0, at: f.monday(9))
        let called = try await bookThere(f, 1, at: f.monday(10))
        _ = try await rides.cancel(kept.id, for: kept.netID, now: f.now, lateWithin: 3_600)
        let cancelled = try await rides.cancel(called.id, for: called.netID, now: f.now, lateWithin: 3_600, withReturn: true)
        #expect(cancelled.willCallClosed)
        // Without the flag her way back stays open: the legs are independent (she may get there another way).
        #expect(try await f.booking.willCall(of: kept.id)?.state == .open)
        #expect(try await f.booking.willCall(of: called.id)?.state == .closed)
        await #expect(throws: WillCallError.closed) {
            _ = try await f.booking.ready(called.id, netID: called.netID, actor: "rider1", now: f.monday(11))
        }
        // The day board lists the open one only.
        let open = try await f.booking.openWillCalls(before: f.monday(23))
        #expect(open.map(\.1.id) == [kept.id])
        await f.db.close()
    }
}
