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
            case .booked(let b) = try await f.booking.book(second, now: f.now)
        else {
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

    @Test func aRideLastOnItsVansShortRouteIsPlacedAsOnTheVansWholeDay() async throws {
        // One van, so the van's whole day decides exactly as every van's would. A 13:00 request
        // first reads 11:30–14:30 (the asked time alone) and opens and closes its van's route as
        // read: "near the cut", so it is settled on the van's own longer route.
        let f = try await BookingFixture(vans: [("Van 1", 8, 0)], oneRiderAtATime: false)
        let scheduler = try await f.db.pool.withConnection { try ServiceCalendarStore.scheduler($0, timeZone: f.zone, around: f.monday(13)) }
        let vans = try await f.db.pool.withConnection { try VanStore.list($0, includeRetired: false) }
        let request = RideRequest(pickup: f.scl, dropoff: f.sml, pickupAt: f.monday(13), notBefore: f.now)
        func plan() async throws -> (Assignment, VanDayRoutes.Snapshot, Assignment) {
            let (feasibility, snapshot) = try await f.db.pool.withConnection { try VanDayRoutes.plan(request, scheduler: scheduler, vans: vans, $0) }
            let everything = try await f.db.pool.withConnection {
                try RideRecord.booked($0, aboardIn: DateInterval(start: f.monday(-48), end: f.monday(72)), longestRide: VanDayRoutes.longestRide)
            }
            guard case .feasible(let placed) = feasibility, case .feasible(let whole) = scheduler.check(request, vans: vans, rides: everything) else {
                throw ValidationError(field: "request", reason: "should fit: \(feasibility)")
            }
            return (placed, snapshot, whole)
        }
        guard case .booked = try await f.booking.book(f.request(0, at: f.monday(9)), now: f.now) else { Issue.record("9:00 should book"); return }
        // Nothing of the van after 13:00 in its day: the placement on its route stands, on the
        // versions of the first read (three hours, not the suggestion window's or the day's).
        let (alone, read, wholeAlone) = try await plan()
        #expect(read.span == DateInterval(start: f.monday(11, 30), end: f.monday(14, 30)), "planned on \(read.span), not the asked time's read")
        #expect(alone.pickupAt == wholeAlone.pickupAt && alone.dropoffAt == wholeAlone.dropoffAt && alone.replanned == wholeAlone.replanned)
        // A ride of the van at 20:00, beyond the first read: the ride is placed on the van's longer
        // route (still on the first read's versions), as the whole day places it.
        guard case .booked = try await f.booking.book(f.request(1, at: f.monday(20)), now: f.now) else { Issue.record("20:00 should book"); return }
        let (beyond, reread, wholeBeyond) = try await plan()
        #expect(reread.span == read.span)
        #expect(beyond.vanID == wholeBeyond.vanID && beyond.pickupAt == wholeBeyond.pickupAt && beyond.dropoffAt == wholeBeyond.dropoffAt)
        #expect(beyond.replanned == wholeBeyond.replanned)
        await f.db.close()
    }

    /// The way out of a run of lost races: ``VanDayRoutes/lockEveryVan(_:around:timeZone:_:)`` holds
    /// every van-day a plan around the ride could lock, so another writer waits for it, and the
    /// plan made under it finds its versions as read.
    @Test func aBookingThatKeepsLosingHoldsEveryVanAroundItsRideAndThenCannotLose() async throws {
        let f = try await BookingFixture(vans: [("Van 1", 8, 0), ("Van 2", 8, 0), ("Van 3", 8, 0)], oneRiderAtATime: false)
        let scheduler = try await f.db.pool.withConnection { try ServiceCalendarStore.scheduler($0, timeZone: f.zone, around: f.monday(23, 30)) }
        let vans = try await f.db.pool.withConnection { try VanStore.list($0, includeRetired: false) }
        let request = RideRequest(pickup: f.scl, dropoff: f.sml, pickupAt: f.monday(23, 30), notBefore: f.now)
        let span = scheduler.routeSpan(around: request.pickupAt)
        // The second session that tries the locks connects before the transaction, with time to
        // spare: under a full suite's load a connection can take seconds to start.
        var configuration = f.db.pool.configuration
        configuration.connectTimeoutSeconds = 60
        let other = try PGConnection(configuration: configuration)
        defer { other.close() }
        let zone = f.zone
        // The rows exist once a writer has made them (another writer waits on rows this one
        // has only inserted too, but NOWAIT below can only see committed ones).
        try await f.db.pool.withTransaction { try VanDayRoutes.lockEveryVan(vans, around: span, timeZone: zone, $0) }
        let (held, won) = try await f.db.pool.withTransaction { conn -> ([Bool], Bool) in
            try VanDayRoutes.lockEveryVan(vans, around: span, timeZone: zone, conn)
            // Every van-day any van's change in the span would lock is held: another writer must wait.
            var held: [Bool] = []
            for van in vans {
                for vanDay in VanDayRoutes.vanDays(vanID: van.id, changes: span, timeZone: zone) {
                    do {
                        _ = try other.query(
                            "SELECT 1 FROM van_days WHERE van_id = \(vanDay.vanID) AND day = \(vanDay.day.description)::date FOR UPDATE NOWAIT")
                        held.append(false)
                    } catch let error as PGError where error.sqlState == SQLState(rawValue: "55P03") {
                        held.append(true)  // lock_not_available
                    }
                }
            }
            let (feasibility, snapshot) = try VanDayRoutes.plan(request, scheduler: scheduler, vans: vans, conn)
            guard case .feasible(let assignment) = feasibility else {
                Issue.record("23:30 should fit on an empty fleet: \(feasibility)")
                return (held, false)
            }
            let vanDays = VanDayRoutes.vanDays(vanID: assignment.vanID, changes: assignment.changes, timeZone: zone)
            return (held, try VanDayRoutes.lock(vanDays, unchangedSince: snapshot, conn))
        }
        // 23:30 reaches across midnight: at least two days of each of the three vans.
        #expect(held.count >= 6)
        #expect(held.allSatisfy { $0 })
        #expect(won)
        await f.db.close()
    }
}
