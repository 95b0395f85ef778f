import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres
import VanScheduler

/// A writer that lost a race plans again on a snapshot that reads again only the vans whose
/// van-day versions moved (``VanDayRoutes/snapshot(_:span:reusing:)``).
@Suite("Snapshots reused after a lost race")
struct SnapshotReuseTests {
    @Test func aSecondReadTakesTheMovedVanAfreshAndKeepsTheOthersAsRead() async throws {
        // Two 2-seat vans; each 10:00 rider brings a companion, so the two rides take a van each.
        let f = try await BookingFixture(vans: [("Van 1", 2, 0), ("Van 2", 2, 0)], oneRiderAtATime: false)
        var first = f.request(0, at: f.monday(10)), second = f.request(1, at: f.monday(10))
        first.companions = 1
        second.companions = 1
        guard case .booked(let a) = try await f.booking.book(first, now: f.now),
              case .booked(let b) = try await f.booking.book(second, now: f.now) else {
            Issue.record("both 10:00 rides should book"); return
        }
        #expect(a.vanID != b.vanID)
        let span = DateInterval(start: f.monday(7), end: f.monday(13))
        let earlier = try await f.db.pool.withConnection { try VanDayRoutes.snapshot($0, span: span) }
        #expect(Set(earlier.rides.map(\.id)) == [a.id, b.id])

        // Another writer books 11:00 (bumping its van's version); a hand edit of the other van's
        // ride (no version bump: only vand's writers keep that rule) shows what was reused.
        guard case .booked(let c) = try await f.booking.book(f.request(2, at: f.monday(11)), now: f.now) else {
            Issue.record("11:00 should book"); return
        }
        let untouched = c.vanID == a.vanID ? b : a
        try await f.db.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET companions = 0 WHERE id = \(untouched.id)")
        }
        let again = try await f.db.pool.withConnection { try VanDayRoutes.snapshot($0, span: span, reusing: earlier) }
        let fresh = try await f.db.pool.withConnection { try VanDayRoutes.snapshot($0, span: span) }
        #expect(Set(again.rides.map(\.id)) == [a.id, b.id, c.id])
        #expect(again.versions == fresh.versions)
        // The moved van's rides are read again, exactly as a fresh read has them …
        let moved = { (s: VanDayRoutes.Snapshot) in s.rides.filter { $0.vanID == c.vanID }.sorted { $0.pickupAt < $1.pickupAt } }
        #expect(moved(again) == moved(fresh))
        // … and the other van's come from the earlier read (still one companion).
        #expect(again.rides.first { $0.id == untouched.id }?.companions == 1)
        #expect(fresh.rides.first { $0.id == untouched.id }?.companions == 0)

        // Nothing moved since: the earlier rides as they were; another span: read whole.
        let still = try await f.db.pool.withConnection { try VanDayRoutes.snapshot($0, span: span, reusing: again) }
        #expect(still.rides == again.rides)
        let other = try await f.db.pool.withConnection {
            try VanDayRoutes.snapshot($0, span: DateInterval(start: f.monday(8), end: f.monday(13)), reusing: again)
        }
        #expect(other.rides.first { $0.id == untouched.id }?.companions == 0)
        await f.db.close()
    }

    @Test func aRouteIsWholeInAShortReadOnlyWhenNothingOfItsVanLiesBeyond() async throws {
        let f = try await BookingFixture(vans: [("Van 1", 8, 0)], oneRiderAtATime: false)
        guard case .booked(let early) = try await f.booking.book(f.request(0, at: f.monday(9)), now: f.now) else {
            Issue.record("9:00 should book"); return
        }
        let short = DateInterval(start: f.monday(8), end: f.monday(11))
        let wide = DateInterval(start: f.monday(2), end: f.monday(22))
        let read = try await f.db.pool.withConnection { try VanDayRoutes.snapshot($0, span: short) }
        #expect(read.rides.map(\.id) == [early.id])
        func whole(start: Bool, end: Bool) async throws -> Bool {
            try await f.db.pool.withConnection { try VanDayRoutes.routeIsWhole(vanID: early.vanID!, in: short, within: wide, start: start, end: end, $0) }
        }
        #expect(try await whole(start: true, end: true))
        // A ride of the same van at 18:00: beyond the short read, inside the wide one.
        guard case .booked = try await f.booking.book(f.request(1, at: f.monday(18)), now: f.now) else {
            Issue.record("18:00 should book"); return
        }
        #expect(try await !whole(start: false, end: true))
        #expect(try await whole(start: true, end: false))
        // A ride at 4:00, before the short read and over by its start: the start side is cut too.
        guard case .booked = try await f.booking.book(f.request(2, at: f.monday(4)), now: f.now) else {
            Issue.record("4:00 should book"); return
        }
        #expect(try await !whole(start: true, end: false))
        #expect(try await whole(start: false, end: false))
        await f.db.close()
    }

    @Test func theBackgroundSearchThreadRunsUnderSchedIdle() async throws {
        // SCHED_IDLE (5): a booking's threads always come first.
        #expect(try await BackgroundSearchThread.policy() == BackgroundSearchThread.idlePolicy)
        // Its budget is its own CPU time: it grows with the work the thread does.
        let used = try await BackgroundSearchThread.run {
            let before = BackgroundSearchThread.threadCPUSeconds()
            var x: UInt64 = 1
            for i in 0..<5_000_000 { x = x &* 6_364_136_223_846_793_005 &+ UInt64(i) }
            return (BackgroundSearchThread.threadCPUSeconds() - before, x)
        }
        #expect(used.0 > 0, "no CPU time counted (\(used.1))")
    }
}
