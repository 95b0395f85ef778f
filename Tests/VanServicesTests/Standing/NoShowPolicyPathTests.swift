import Foundation
import Logging
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// The no-show policy end to end, through the real services on a real database: the driver's
/// taps make the no-shows (one van late, so it never counts), the trigger loop sends the notice,
/// her appeal holds it, the office upholds it, every booking refuses her, her rides in the
/// period are cancelled when it starts, and she books again once it ends.
@Suite("The no-show policy: record, notice, appeal, decision, suspension")
struct NoShowPolicyPathTests {
    /// The office's policy for these tests: 3 no-shows in 30 days and 10 %, 2 days' notice, 2 to appeal, 3 days.
    static var policy: NoShowPolicy {
        var policy = NoShowPolicy()
        policy.noShows = 3
        policy.noticeDays = 2
        policy.appealDays = 2
        policy.suspendDays = [3, 6]
        return policy
    }

    struct Fixture {
        let road: RoadFixture
        let standing: NoShowStanding
        let loop: TriggerLoop
        let receiver: WebhookReceiver
        let rider = try! NetID("rider0")
        var clock: ManualClock { road.clock }
        var booking: BookingService { road.base.booking }

        init() async throws {
            var settings = RoadSettings()
            settings.noShowWait = 300
            road = try await RoadFixture(settings: settings)
            standing = NoShowStanding(pool: road.db.pool, rule: settings.noShowRule, timeZone: road.zone, hotline: "203-555-0100")
            receiver = try await WebhookReceiver.start()
            loop = TriggerLoop(
                pool: road.db.pool, settings: receiver.settings(), timeZone: road.zone, clock: road.clock, logger: TestCluster.quietLogger,
                standing: standing)
            try await standing.setPolicy(NoShowPolicyPathTests.policy, actor: "office")
        }

        /// A day after Monday 2026-11-23 at `hour`:`minute`.
        func day(_ offset: Int, _ hour: Int, _ minute: Int = 0) -> Date { road.monday(hour, minute).addingTimeInterval(Double(offset) * 86_400) }

        /// The driver arrives `arrivalMinutes` after the window opens and, if she may, taps a no-show after the full wait.
        func noShow(_ ride: Ride, arrivalMinutes: Double) async throws {
            clock.set(ride.promise.window.start.addingTimeInterval(arrivalMinutes * 60))
            _ = try await road.road.taps.tap(driver: road.driver1, road.tap(ride, .pickup, .arrived))
            clock.set(max(clock.now, ride.promise.window.start).addingTimeInterval(360))
            _ = try await road.road.taps.tap(driver: road.driver1, road.tap(ride, .pickup, .noShow))
        }

        func inbox() async throws -> [String] { try await Inbox(pool: road.db.pool).list(rider.rawValue).map(\.message) }

        func status(_ ride: Ride) async throws -> String { try await road.status(ride) }
    }

    @Test func theWholePathFromTapsToTheEndOfTheSuspension() async throws {
        let f = try await Fixture()
        let zone = f.road.zone
        // Her rides: four on Monday, and one in what will be the suspension, booked before it.
        let rides = try await [10, 12, 14, 16].asyncMap { try await f.road.approvedRide(0, at: f.road.monday($0)) }
        guard case .booked(let bookedEarly) = try await f.booking.book(f.road.base.request(0, at: f.day(2, 10)), now: f.road.base.now) else {
            throw TestFailure("the early booking failed")
        }
        _ = try await f.road.road.shifts.start(driver: f.road.driver1, vanID: try await f.road.van("Van 1"))

        // Two no-shows the taps prove: no notice yet (2 of 3).
        try await f.noShow(rides[0], arrivalMinutes: -1)
        try await f.noShow(rides[1], arrivalMinutes: -2)
        #expect(try await f.loop.runOnce(now: f.clock.now).notices == 0)

        // The van reaches the 2 PM pickup 10 minutes after its window: the driver may not mark a
        // no-show, and the office's by-hand no-show never counts.
        f.clock.set(rides[2].promise.window.end.addingTimeInterval(600))
        _ = try await f.road.road.taps.tap(driver: f.road.driver1, f.road.tap(rides[2], .pickup, .arrived))
        await #expect(throws: RoadError.self) {
            _ = try await f.road.road.taps.tap(driver: f.road.driver1, f.road.tap(rides[2], .pickup, .noShow))
        }
        _ = try await DispatchService(pool: f.road.db.pool, timeZone: zone).noShow(rides[2].id.uuidString, actor: "office", now: f.clock.now)
        #expect(try await f.loop.runOnce(now: f.clock.now).notices == 0)

        // The third proven no-show crosses: the loop sends the notice, naming the three trips.
        try await f.noShow(rides[3], arrivalMinutes: 0)
        let pass = try await f.loop.runOnce(now: f.clock.now)
        #expect(pass.notices == 1)
        let record = try await f.standing.standing(f.rider.rawValue, now: f.clock.now)
        #expect(record.record.counted.map(\.rideID) == [rides[0].id, rides[1].id, rides[3].id])
        let late = try #require(record.record.entries.first { $0.trip.rideID == rides[2].id })
        guard case .excluded(.vanLate) = late.verdict else { throw TestFailure("the late van's trip counted: \(late.verdict)") }
        let notice = try #require(try await f.inbox().first { $0.hasPrefix("Notice of a proposed suspension") })
        for ride in [rides[0], rides[1], rides[3]] { #expect(notice.contains(ride.ref.rawValue), "\(notice)") }
        #expect(!notice.contains(rides[2].ref.rawValue))
        #expect(notice.contains("from Wednesday, November 25 to Friday, November 27"), "\(notice)")
        #expect(notice.contains("appeal until Wednesday, November 25"), "\(notice)")
        let proposed = try #require(record.cases.first)
        #expect(proposed.status == .proposed && proposed.periodDays == 3)
        // The dispatcher's webhook hears it with exactly the documented fields.
        let hook = try #require(f.receiver.deliveries.first { $0.kind == "suspension_notice" })
        let documented = try WebhookPayloadTests.documentedFields().filter {
            $0 != "road" && !$0.hasPrefix("road.") && $0 != "late" && !$0.hasPrefix("late.")
        }
        #expect(Set(hook.body.keys) == documented, "\(Set(hook.body.keys).symmetricDifference(documented).sorted())")
        #expect(hook.body["standing.message"] == notice && hook.body["standing.status"] == "proposed")
        // A second pass proposes nothing more.
        #expect(try await f.loop.runOnce(now: f.clock.now).notices == 0)

        // Proposed and not appealed, it already blocks a booking in the period.
        await #expect(throws: RiderSuspended.self) { _ = try await f.booking.book(f.road.base.request(0, at: f.day(3, 11)), now: f.clock.now) }

        // Her appeal puts it on hold: she books a ride inside the period.
        f.clock.set(f.day(1, 8))
        let appealed = try await f.standing.appeal(f.rider.rawValue, text: "I was in the hospital", filedBy: f.rider.rawValue, now: f.clock.now)
        #expect(appealed.status == .appealed)
        guard case .booked(let duringHold) = try await f.booking.book(f.road.base.request(0, at: f.day(3, 11)), now: f.clock.now) else {
            throw TestFailure("booking while the appeal is on hold failed")
        }

        // The office upholds it: her written decision arrives, and every booking refuses her with the dates and the number.
        f.clock.set(f.day(1, 9))
        let upheld = try await f.standing.decide(
            proposed.id, uphold: true, reason: "the hospital stay was on Tuesday", actor: "office", now: f.clock.now)
        #expect(upheld.startsOn.rawValue == "2026-11-25" && upheld.endsOn.rawValue == "2026-11-28")
        _ = try await f.loop.runOnce(now: f.clock.now)
        #expect(try await f.inbox().contains { $0.contains("the suspension is upheld") && $0.contains("the hospital stay was on Tuesday") })
        var sentence = ""
        do {
            _ = try await f.booking.bookSeries([f.road.base.request(0, at: f.day(3, 14))], now: f.clock.now, bookedBy: "office")
            Issue.record("a suspended rider was booked")
        } catch let refusal as RiderSuspended {
            sentence = refusal.sentence(hotline: "203-555-0100")
        }
        #expect(sentence.contains("Wednesday, November 25") && sentence.contains("Friday, November 27") && sentence.contains("203-555-0100"))
        #expect(try await f.road.count("SELECT count(*) FROM rides WHERE pickup_at = \(f.day(3, 14))") == 0)

        // A medical trip the office books over it, with the reason, audited.
        let medical = try await f.booking.bookSeries(
            [f.road.base.request(0, at: f.day(3, 15))], now: f.clock.now, bookedBy: "office", overrideSuspension: "dialysis")
        guard case .booked(let kept) = medical[0] else { throw TestFailure("the override booking failed: \(medical)") }
        #expect(try await f.road.count("SELECT count(*) FROM audit_log WHERE action = 'book.override_suspension'") == 1)

        // The suspension starts: her rides in the period are cancelled with the reason; the medical one stays.
        f.clock.set(f.day(2, 0, 5))
        let start = try await f.loop.runOnce(now: f.clock.now)
        #expect(start.suspensionCancels == 2)
        let statuses = [try await f.status(bookedEarly), try await f.status(duringHold)]
        #expect(statuses == ["cancelled", "cancelled"])
        #expect(try await f.status(kept) != "cancelled")
        _ = try await f.loop.runOnce(now: f.clock.now)
        #expect(try await f.inbox().filter { $0.contains("suspended under the no-show policy") }.count == 2)
        #expect(try await f.loop.runOnce(now: f.clock.now).suspensionCancels == 0)

        // The period ends: she books again.
        f.clock.set(f.day(5, 8))
        guard case .booked = try await f.booking.book(f.road.base.request(0, at: f.day(7, 10)), now: f.clock.now) else {
            throw TestFailure("booking after the suspension failed")
        }
        f.receiver.stop()
        await f.road.db.close()
    }

    /// With no notice days the suspension starts with the notice; an appeal in time still holds
    /// it, and an uphold starts it again: the ride she booked while it was on hold is cancelled.
    @Test func anAppealAfterTheStartHoldsItAndAnUpholdStartsItAgain() async throws {
        let f = try await Fixture()
        var policy = NoShowPolicyPathTests.policy
        policy.noticeDays = 0
        try await f.standing.setPolicy(policy, actor: "office")
        let rides = try await [10, 12, 14].asyncMap { try await f.road.approvedRide(0, at: f.road.monday($0)) }
        _ = try await f.road.road.shifts.start(driver: f.road.driver1, vanID: try await f.road.van("Van 1"))
        for ride in rides { try await f.noShow(ride, arrivalMinutes: -1) }
        let noticed = try await f.loop.runOnce(now: f.clock.now)
        #expect(noticed.notices == 1)
        let started = try #require(try await f.standing.standing(f.rider.rawValue, now: f.clock.now).cases.first)
        #expect(started.startedAt != nil, "it started with the notice")

        f.clock.set(f.day(1, 8))
        let appealed = try await f.standing.appeal(f.rider.rawValue, text: "the van came to the wrong door", filedBy: "office", now: f.clock.now)
        guard case .booked(let duringHold) = try await f.booking.book(f.road.base.request(0, at: f.day(1, 15)), now: f.clock.now) else {
            throw TestFailure("booking while the appeal is on hold failed")
        }
        f.clock.set(f.day(1, 9))
        let upheld = try await f.standing.decide(
            appealed.id, uphold: true, reason: "the driver waited at the front door", actor: "office", now: f.clock.now)
        #expect(upheld.startsOn.rawValue == "2026-11-24" && upheld.endsOn.rawValue == "2026-11-27")
        #expect(try await f.loop.runOnce(now: f.clock.now).suspensionCancels == 1)
        #expect(try await f.status(duringHold) == "cancelled")
        f.receiver.stop()
        await f.road.db.close()
    }

    @Test func anExcusedNoShowNeverCountsAndNoNoticeGoesOut() async throws {
        let f = try await Fixture()
        let rides = try await [10, 12, 14].asyncMap { try await f.road.approvedRide(0, at: f.road.monday($0)) }
        _ = try await f.road.road.shifts.start(driver: f.road.driver1, vanID: try await f.road.van("Van 1"))
        try await f.noShow(rides[0], arrivalMinutes: -1)
        try await f.noShow(rides[1], arrivalMinutes: -1)
        try await f.standing.excuse(rides[1].ref.rawValue, reason: "her father was taken ill", actor: "office", now: f.clock.now)
        await #expect(throws: StandingError.alreadyExcused(ref: rides[1].ref.rawValue)) {
            try await f.standing.excuse(rides[1].ref.rawValue, reason: "again", actor: "office", now: f.clock.now)
        }
        try await f.noShow(rides[2], arrivalMinutes: -1)
        #expect(try await f.loop.runOnce(now: f.clock.now).notices == 0)
        let standing = try await f.standing.standing(f.rider.rawValue, now: f.clock.now)
        #expect(standing.record.counted.count == 2 && standing.cases.isEmpty)
        #expect(standing.record.entries.contains { $0.verdict == .excluded(.excused(reason: "her father was taken ill")) })
        #expect(try await f.road.count("SELECT count(*) FROM audit_log WHERE action = 'noshow.excuse'") == 1)
        f.receiver.stop()
        await f.road.db.close()
    }

    @Test func manyReviewsAtOnceProposeOneSuspension() async throws {
        let f = try await Fixture()
        let rides = try await [10, 12, 14].asyncMap { try await f.road.approvedRide(0, at: f.road.monday($0)) }
        _ = try await f.road.road.shifts.start(driver: f.road.driver1, vanID: try await f.road.van("Van 1"))
        for ride in rides { try await f.noShow(ride, arrivalMinutes: -1) }
        let now = f.clock.now
        let standing = f.standing
        // Eight reviewers at once, and the queue's sweep beside them.
        let proposed = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await standing.review("rider0", now: now) == nil ? 0 : 1 } }
            group.addTask { try await standing.reviewQueued(now: now).count }
            return try await group.reduce(0, +)
        }
        #expect(proposed == 1)
        #expect(try await f.road.count("SELECT count(*) FROM suspensions") == 1)
        #expect(try await f.road.count("SELECT count(*) FROM ride_events WHERE kind = 'suspension_notice'") == 1)
        f.receiver.stop()
        await f.road.db.close()
    }

    @Test func anAppealAfterItsDayOrWithoutANoticeIsRefusedAndChangesNothing() async throws {
        let f = try await Fixture()
        await #expect(throws: StandingError.nothingToAppeal(netID: "rider0")) {
            try await f.standing.appeal("rider0", text: "why", filedBy: "rider0", now: f.clock.now)
        }
        let rides = try await [10, 12, 14].asyncMap { try await f.road.approvedRide(0, at: f.road.monday($0)) }
        _ = try await f.road.road.shifts.start(driver: f.road.driver1, vanID: try await f.road.van("Van 1"))
        for ride in rides { try await f.noShow(ride, arrivalMinutes: -1) }
        _ = try await f.loop.runOnce(now: f.clock.now)
        await #expect(throws: StandingError.text(field: "text", reason: "is required")) {
            try await f.standing.appeal("rider0", text: "  ", filedBy: "rider0", now: f.clock.now)
        }
        await #expect(throws: StandingError.appealClosed(netID: "rider0", appealBy: try LocalDate("2026-11-25"))) {
            try await f.standing.appeal("rider0", text: "late", filedBy: "rider0", now: f.day(3, 9))
        }
        #expect(try await f.road.count("SELECT count(*) FROM suspensions WHERE status = 'proposed'") == 1)
        await #expect(throws: StandingError.self) {
            try await f.standing.decide(1, uphold: true, reason: "no appeal", actor: "office", now: f.clock.now)
        }
        f.receiver.stop()
        await f.road.db.close()
    }
}

extension Array {
    /// Maps in order, awaiting each.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
