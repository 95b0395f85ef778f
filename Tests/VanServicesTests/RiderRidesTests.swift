import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres
import VanScheduler

@Suite("Series, idempotency and a rider's own rides")
struct RiderRidesTests {
    @Test func aSeriesBooksWhatFitsAndListsConflictsWithSuggestions() async throws {
        let f = try await BookingFixture()
        // Someone already holds the only van on Wednesday at 15:00.
        guard case .booked = try await f.booking.book(f.request(9, at: f.monday(15).addingTimeInterval(2 * 86_400)), now: f.now) else {
            Issue.record("setup failed"); return
        }
        let series = UUID()
        let occurrences = (0..<5).map { day in
            var ride = f.request(0, at: f.monday(15).addingTimeInterval(Double(day) * 86_400))
            ride.seriesID = series
            return ride
        }
        let outcomes = try await f.booking.bookSeries(occurrences, now: f.now)
        #expect(outcomes.count == 5)
        let refused = outcomes.enumerated().filter { if case .refused = $0.element { true } else { false } }
        #expect(refused.map(\.offset) == [2])
        if case .refused(let feasibility, _) = refused.first?.element {
            #expect(!feasibility.suggestions.isEmpty)
        }
        // Cancelling the series cancels the four booked occurrences still ahead.
        let rides = RiderRides(pool: f.db.pool)
        #expect(try await rides.cancelSeries(series, for: try NetID("rider0"), now: f.now, lateWithin: 3_600) == 4)
        #expect(try await f.count("SELECT count(*) FROM rides WHERE series_id IS NOT NULL AND status = 'cancelled'") == 4)
        await f.db.close()
    }

    @Test func aRetriedRequestWithTheSameKeyBooksOnce() async throws {
        let f = try await BookingFixture()
        let body = Data(#"{"pickup":"SCL"}"#.utf8)
        let key = IdempotencyKey(netID: try NetID("rider0"), key: "phone-retry-1", body: body)
        let ride = f.request(0, at: f.monday(10))
        // Eight copies of the same request racing (a phone retrying on bad Wi-Fi).
        let answers = try await withThrowingTaskGroup(of: IdempotentBooking.self) { group in
            for _ in 0..<8 {
                group.addTask { try await f.booking.bookSeries([ride], now: f.now, idempotencyKey: key) }
            }
            return try await group.reduce(into: [IdempotentBooking]()) { $0.append($1) }
        }
        var fresh = 0
        for answer in answers {
            switch answer {
            case .fresh(let outcomes):
                fresh += 1
                guard case .booked(let booked) = outcomes[0] else { Issue.record("the first request was refused"); continue }
                #expect(booked.id == ride.id)
            case .replay(let remembered):
                // The first request committed what it booked before any retry could read the key.
                #expect(remembered.outcome == .booked && remembered.rideID == ride.id && remembered.answer == nil)
            }
        }
        #expect(fresh == 1)
        // Once the answer is recorded, a retry gets exactly its words.
        try await f.booking.recordAnswer("the first answer", for: key)
        try await f.booking.recordAnswer("a second answer is ignored", for: key)
        guard case .replay(let remembered) = try await f.booking.bookSeries([ride], now: f.now, idempotencyKey: key) else {
            Issue.record("a retry booked again"); return
        }
        #expect(remembered.answer == "the first answer")
        #expect(try await f.count() == 1)
        // The same key with a different body is refused, and books nothing.
        let other = IdempotencyKey(netID: try NetID("rider0"), key: "phone-retry-1", body: Data("{}".utf8))
        await #expect(throws: IdempotencyKeyReused.self) {
            try await f.booking.bookSeries([f.request(0, at: f.monday(18))], now: f.now, idempotencyKey: other)
        }
        #expect(try await f.count() == 1)
        await f.db.close()
    }

    /// Rides at the same pickup time are paged in PostgreSQL's `(pickup_at, id)` order — the
    /// page is ordered in Swift (no second sort in the statement), ids compared as the server does.
    @Test func ridesAtOneTimeArePagedInTheServersOrderOfIDs() async throws {
        let f = try await BookingFixture()
        let rides = RiderRides(pool: f.db.pool)
        let alice = try NetID("rider1")
        for hour in [9, 10, 11, 12, 13, 14, 15] {
            guard case .booked = try await f.booking.book(f.request(1, at: f.monday(hour)), now: f.now) else { Issue.record("setup"); return }
        }
        // Every ride at 9:00 (off its van, so they may overlap), and ids unlike their booking order.
        try await f.db.pool.withConnection { conn in
            try conn.execute(
                "UPDATE rides SET van_id = NULL, status = 'pending', id = gen_random_uuid(), pickup_at = \(f.monday(9)), estimated_dropoff_at = \(f.monday(9, 20)), window_start = \(f.monday(9)), window_end = \(f.monday(9, 15)) WHERE net_id = 'rider1'"
            )
        }
        let order: [UUID] = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT id FROM rides WHERE net_id = 'rider1' ORDER BY pickup_at, id").map { try $0.decode(UUID.self, at: 0) }
        }
        #expect(order.count == 7)
        var paged: [UUID] = []
        var cursor: String?
        repeat {
            let page = try await rides.list(alice, scope: .upcoming, now: f.now, limit: 3, after: cursor)
            paged += page.rides.map(\.id)
            cursor = page.next
        } while cursor != nil
        #expect(paged == order)
        let past = try await rides.list(alice, scope: .past, now: f.monday(23), limit: 10)
        #expect(past.rides.map(\.id) == order.reversed())
        // The Swift ordering alone, from shuffled rows.
        let all = try await rides.list(alice, scope: .upcoming, now: f.now, limit: 10).rides
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20 {
            let shuffled = all.shuffled(using: &generator)
            #expect(RiderRides.ordered(shuffled, .upcoming).map(\.id) == order)
            #expect(RiderRides.ordered(shuffled, .past).map(\.id) == order.reversed())
        }
        await f.db.close()
    }

    @Test func ridersSeeAndCancelOnlyTheirOwnRidesAndLateCancellationsAreMarked() async throws {
        let f = try await BookingFixture()
        let rides = RiderRides(pool: f.db.pool)
        let alice = try NetID("rider1"), bob = try NetID("rider2")
        var ids: [UUID] = []
        for hour in [9, 11, 13, 16] {
            guard case .booked(let ride) = try await f.booking.book(f.request(1, at: f.monday(hour)), now: f.now) else {
                Issue.record("setup"); return
            }
            ids.append(ride.id)
        }
        let firstPage = try await rides.list(alice, scope: .upcoming, now: f.now, limit: 3)
        #expect(firstPage.rides.map(\.id) == Array(ids.prefix(3)))
        let secondPage = try await rides.list(alice, scope: .upcoming, now: f.now, limit: 3, after: firstPage.next)
        #expect(secondPage.rides.map(\.id) == [ids[3]])
        #expect(secondPage.next == nil)
        #expect(try await rides.list(bob, scope: .upcoming, now: f.now).rides.isEmpty)
        #expect(try await rides.find(ids[0], for: bob) == nil)
        await #expect(throws: RiderRides.CancelError.notFound) { try await rides.cancel(ids[0], for: bob, now: f.now, lateWithin: 3_600) }
        // 30 minutes before the 9:00 pickup: a late cancellation.
        let late = try await rides.cancel(ids[0], for: alice, now: f.monday(8, 30), lateWithin: 3_600)
        #expect(late.ride.status == .cancelled)
        #expect(late.late)
        // The flag is what the database holds, not only what was returned.
        #expect(try await f.count("SELECT count(*) FROM rides WHERE cancelled_late AND id = \(ids[0])") == 1)
        let early = try await rides.cancel(ids[1], for: alice, now: f.now, lateWithin: 3_600)
        #expect(early.ride.status == .cancelled)
        #expect(!early.late)
        #expect(try await f.count("SELECT count(*) FROM rides WHERE NOT cancelled_late AND id = \(ids[1])") == 1)
        await #expect(throws: RiderRides.CancelError.notCancellable(.cancelled)) {
            try await rides.cancel(ids[1], for: alice, now: f.now, lateWithin: 3_600)
        }
        await #expect(throws: RiderRides.CancelError.afterPickup) { try await rides.cancel(ids[2], for: alice, now: f.monday(14), lateWithin: 3_600) }
        // Past rides, latest first.
        let past = try await rides.list(alice, scope: .past, now: f.monday(23))
        #expect(past.rides.map(\.id) == ids.reversed())
        await f.db.close()
    }
}
