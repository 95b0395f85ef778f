import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("The van's day on the road: shifts, taps, the run")
struct RoadServiceTests {
    @Test func oneOpenShiftPerVanAndPerDriverWithClearErrors() async throws {
        let f = try await RoadFixture()
        let van1 = try await f.van("Van 1"), van2 = try await f.van("Van 2")
        let shift = try await f.road.shifts.start(driver: f.driver1, vanID: van1)
        #expect(shift.vanName == "Van 1" && shift.isOpen && shift.startedAt == f.clock.now)
        await #expect(throws: RoadError.driverHasShift(van: "Van 1")) { try await f.road.shifts.start(driver: f.driver1, vanID: van2) }
        await #expect(throws: RoadError.vanHasShift(van: "Van 1")) { try await f.road.shifts.start(driver: f.driver2, vanID: van1) }
        await #expect(throws: RoadError.notADriver(try NetID("rider0"))) { try await f.road.shifts.start(driver: try NetID("rider0"), vanID: van2) }
        await #expect(throws: RoadError.unknownVan("#999")) { try await f.road.shifts.start(driver: f.driver2, vanID: 999) }
        f.clock.advance(by: 3_600)
        let ended = try await f.road.shifts.end(driver: f.driver1)
        #expect(ended.endedAt == f.clock.now && ended.endedBy == "driver1")
        await #expect(throws: RoadError.noOpenShift) { try await f.road.shifts.end(driver: f.driver1) }
        // The van is free again; the dispatcher ends a shift by the van's name, audited.
        _ = try await f.road.shifts.start(driver: f.driver2, vanID: van1)
        let byDispatcher = try await f.road.shifts.end(vanNamed: "Van 1", actor: "dana")
        #expect(byDispatcher.driverNetID == f.driver2 && byDispatcher.endedBy == "dana")
        #expect(try await f.count("SELECT count(*) FROM audit_log WHERE action = 'shift.end' AND actor = 'dana'") == 1)
        await f.db.close()
    }

    @Test func concurrentStartsOnOneVanLeaveExactlyOneShift() async throws {
        let f = try await RoadFixture()
        let van1 = try await f.van("Van 1")
        try await f.db.pool.withTransaction { conn in
            for index in 4...12 { try conn.execute("INSERT INTO riders (net_id, password_hash, role) VALUES (\("driver\(index)"), 'x', 'driver')") }
        }
        let results = await withTaskGroup(of: Result<Shift, any Error>.self) { group in
            for index in 1...12 {
                group.addTask {
                    do { return .success(try await f.road.shifts.start(driver: try NetID("driver\(index)"), vanID: van1)) } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        #expect(
            results.allSatisfy { result in
                if case .failure(let error) = result { return error as? RoadError == .vanHasShift(van: "Van 1") }
                return true
            })
        #expect(try await f.count("SELECT count(*) FROM shifts WHERE ended_at IS NULL") == 1)
        await f.db.close()
    }

    @Test func theRunListsTheVansStopsTodayInRouteOrderWithTheRidersDetails() async throws {
        let f = try await RoadFixture()
        let first = try await f.approvedRide(0, at: f.monday(10))
        let second = try await f.approvedRide(1, at: f.monday(11))
        _ = try await f.approvedRide(2, at: f.monday(10, 30), van: "Van 2")
        _ = try await f.approvedRide(3, at: f.monday(10).addingTimeInterval(86_400))  // Tuesday: not today
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        let run = try await f.road.runs.run(driver: f.driver1)
        #expect(run.stops.map(\.rideID) == [first.id, first.id, second.id, second.id])
        #expect(run.stops.map(\.stop) == [.pickup, .dropoff, .pickup, .dropoff])
        let next = try #require(run.next)
        #expect(next.riderName == "Jamie D." && next.riderPhone?.rawValue == "6075550100")
        #expect(next.plannedAt == f.monday(10) && next.promise.window.start == f.monday(10))
        #expect(next.nextActions == [.arrived] && next.ref == first.ref)
        await f.db.close()
    }

    @Test func aNoShowWaitsTheSetTimeFromTheLaterOfArrivalAndWindowStart() async throws {
        var settings = RoadSettings()
        settings.noShowWait = 300
        let f = try await RoadFixture(settings: settings)
        let ride = try await f.approvedRide(0, at: f.monday(10))
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        // No-show before arriving: the arrival comes first.
        f.clock.set(f.monday(9, 55))
        await #expect(throws: RoadError.needsEarlier(.noShow, before: .arrived, at: .pickup)) {
            try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .noShow))
        }
        // Arrived five minutes early: the wait counts from the window's start, 10:00.
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .arrived))
        let run = try await f.road.runs.run(driver: f.driver1)
        #expect(run.next?.noShowAllowedFrom == f.monday(10, 5))
        f.clock.set(f.monday(10, 5).addingTimeInterval(-1))
        await #expect(throws: RoadError.noShowTooEarly(allowedFrom: f.monday(10, 5))) {
            try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .noShow))
        }
        #expect(try await f.status(ride) == "approved")
        f.clock.set(f.monday(10, 5))
        let result = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .noShow))
        #expect(result.outcome == .applied && result.rideStatus == .noShow)
        #expect(try await f.status(ride) == "no_show")
        await f.db.close()
    }

    @Test func aNoShowWaitsFromTheTimeTheRiderWasLastToldWhenThatIsLater() async throws {
        var settings = RoadSettings()
        settings.noShowWait = 300
        let f = try await RoadFixture(settings: settings)
        let ride = try await f.approvedRide(0, at: f.monday(10))
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        let window = try await f.road.runs.run(driver: f.driver1).next!.promise.window
        // A late alert told her the van would reach her ten minutes after her window: she comes out then.
        let told = window.end.addingTimeInterval(600)
        f.clock.set(f.monday(9, 50))
        try await f.db.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO ride_alerts (ride_id, kind, raised_at, stop, eta, window_end)
                VALUES (\(ride.id), 'late', \(f.monday(9, 50)), 'pickup', \(told), \(window.end))
                """)
        }
        // The van made up the time and arrived early; the driver's page counts from the told time.
        f.clock.set(f.monday(9, 56))
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .arrived))
        #expect(try await f.road.runs.run(driver: f.driver1).next?.noShowAllowedFrom == told.addingTimeInterval(300))
        f.clock.set(max(f.monday(10), window.start).addingTimeInterval(300))
        await #expect(throws: RoadError.noShowTooEarly(allowedFrom: told.addingTimeInterval(300))) {
            try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .noShow))
        }
        f.clock.set(told.addingTimeInterval(299))
        await #expect(throws: RoadError.noShowTooEarly(allowedFrom: told.addingTimeInterval(300))) {
            try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .noShow))
        }
        #expect(try await f.status(ride) == "approved")
        f.clock.set(told.addingTimeInterval(300))
        #expect(try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .noShow)).rideStatus == .noShow)
        await f.db.close()
    }

    @Test func aVanArrivingAfterTheWindowCannotMarkANoShow() async throws {
        let f = try await RoadFixture()
        let ride = try await f.approvedRide(0, at: f.monday(10))
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        let window = try await f.road.runs.run(driver: f.driver1).next!.promise.window
        f.clock.set(window.end.addingTimeInterval(60))
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .arrived))
        f.clock.advance(by: 3_600)
        await #expect(throws: RoadError.arrivedAfterWindow(windowEnd: window.end)) {
            try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .noShow))
        }
        await f.db.close()
    }

    @Test func aTapIsUndoneWithinTwoMinutesAndNotAfter() async throws {
        let f = try await RoadFixture()
        let ride = try await f.approvedRide(0, at: f.monday(10))
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        f.clock.set(f.monday(10))
        for (stop, action) in [(StopKind.pickup, TapAction.arrived), (.pickup, .boarded), (.dropoff, .arrived)] {
            _ = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, stop, action))
            f.clock.advance(by: 60)
        }
        let key = UUID()
        let dropped = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .dropoff, .droppedOff, key: key))
        #expect(dropped.rideStatus == .completed && dropped.tap.undoUntil == f.clock.now.addingTimeInterval(120))
        #expect(try await f.status(ride) == "completed")
        // Another driver cannot undo it.
        await #expect(throws: RoadError.noSuchTap) { try await f.road.taps.undo(driver: f.driver2, tapKey: key) }
        f.clock.advance(by: 120)
        let undone = try await f.road.taps.undo(driver: f.driver1, tapKey: key)
        #expect(undone.undoneAt == f.clock.now)
        #expect(try await f.status(ride) == "approved")
        // Tapped again, then undone too late.
        let again = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .dropoff, .droppedOff))
        #expect(again.outcome == .applied)
        f.clock.advance(by: 121)
        await #expect(throws: RoadError.undoWindowPassed(closedAt: again.tap.undoUntil)) {
            try await f.road.taps.undo(driver: f.driver1, tapKey: again.tap.tapKey)
        }
        #expect(try await f.status(ride) == "completed")
        await f.db.close()
    }

    @Test func twentyConcurrentTapsApplyOnceWhetherDoubleTapsOrRetries() async throws {
        let f = try await RoadFixture()
        let ride = try await f.approvedRide(0, at: f.monday(10))
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        f.clock.set(f.monday(10))
        // A double tap: twenty different keys for the same arrival.
        let doubles = try await withThrowingTaskGroup(of: TapResult.self) { group in
            for _ in 0..<20 { group.addTask { try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .arrived)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(doubles.filter { $0.outcome == .applied }.count == 1)
        #expect(doubles.filter { $0.outcome == .alreadyDone }.count == 19)
        #expect(Set(doubles.map(\.tap.id)).count == 1)
        // A retried request: one key sent twenty times.
        let key = UUID()
        let retries = try await withThrowingTaskGroup(of: TapResult.self) { group in
            for _ in 0..<20 { group.addTask { try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .boarded, key: key)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(retries.filter { $0.outcome == .applied }.count == 1)
        #expect(retries.filter { $0.outcome == .retried }.count == 19)
        #expect(try await f.count("SELECT count(*) FROM stop_taps") == 2)
        // The key once more, for another action: refused, nothing written.
        await #expect(throws: RoadError.tapKeyReused) { try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .dropoff, .arrived, key: key)) }
        #expect(try await f.count("SELECT count(*) FROM stop_taps") == 2)
        await f.db.close()
    }

    @Test func aDriverActsOnlyOnHerOwnVansStopsToday() async throws {
        let f = try await RoadFixture()
        let mine = try await f.approvedRide(0, at: f.monday(10))
        let theirs = try await f.approvedRide(1, at: f.monday(10), van: "Van 2")
        let tomorrow = try await f.approvedRide(2, at: f.monday(10).addingTimeInterval(86_400))
        await #expect(throws: RoadError.noOpenShift) { try await f.road.taps.tap(driver: f.driver1, f.tap(mine, .pickup, .arrived)) }
        await #expect(throws: RoadError.noOpenShift) { try await f.road.runs.run(driver: f.driver1) }
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        await #expect(throws: RoadError.notOnRun) { try await f.road.taps.tap(driver: f.driver1, f.tap(theirs, .pickup, .arrived)) }
        await #expect(throws: RoadError.notOnRun) { try await f.road.taps.tap(driver: f.driver1, f.tap(tomorrow, .pickup, .arrived)) }
        await #expect(throws: RoadError.actionDoesNotFit(.boarded, .dropoff)) {
            try await f.road.taps.tap(driver: f.driver1, f.tap(mine, .dropoff, .boarded))
        }
        await #expect(throws: RoadError.needsEarlier(.boarded, before: .arrived, at: .pickup)) {
            try await f.road.taps.tap(driver: f.driver1, f.tap(mine, .pickup, .boarded))
        }
        #expect(try await f.count("SELECT count(*) FROM stop_taps") == 0)
        await f.db.close()
    }

    /// A late evening's last ride is dropped off after midnight: the shift that began that evening
    /// still has it on its run and taps it; a shift begun after midnight does not reach back.
    @Test func aShiftPastMidnightStillTapsTheEveningsLastDropOff() async throws {
        let f = try await RoadFixture()
        let late = try await f.approvedRide(0, at: f.monday(23, 58))
        let tuesday = try await f.approvedRide(1, at: f.monday(10).addingTimeInterval(86_400))
        f.clock.set(f.monday(23, 30))
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        f.clock.set(f.monday(23, 58))
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(late, .pickup, .arrived))
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(late, .pickup, .boarded))
        f.clock.set(f.monday(24, 6))
        let run = try await f.road.runs.run(driver: f.driver1)
        #expect(run.stops.map(\.rideID) == [late.id, late.id, tuesday.id, tuesday.id])
        #expect(run.next?.rideID == late.id && run.next?.stop == .dropoff)
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(late, .dropoff, .arrived))
        let dropped = try await f.road.taps.tap(driver: f.driver1, f.tap(late, .dropoff, .droppedOff))
        #expect(dropped.outcome == .applied && dropped.rideStatus == .completed)
        // Ended, and begun again after midnight: Monday's stops are not on Tuesday's run.
        _ = try await f.road.shifts.end(driver: f.driver1)
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        #expect(try await f.road.runs.run(driver: f.driver1).stops.map(\.rideID) == [tuesday.id, tuesday.id])
        await #expect(throws: RoadError.notOnRun) { try await f.road.taps.tap(driver: f.driver1, f.tap(late, .dropoff, .arrived)) }
        await f.db.close()
    }

    /// Two days at most: a shift left open since Saturday reaches back to Sunday evening, no further;
    /// late in the evening, three hours into the next day.
    @Test func aRunSpansTodayAndAtMostTheDayBefore() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let monday = LocalDate(containing: Date(timeIntervalSince1970: 1_795_410_000 + 3_600), in: zone)
        let shift = Shift(
            id: 1, driverNetID: try NetID("driver1"), vanID: 1, vanName: "Van 1",
            startedAt: Date(timeIntervalSince1970: 1_795_410_000 - 2 * 86_400 + 3_600))
        let span = shift.runSpan(at: Date(timeIntervalSince1970: 1_795_410_000 + 3_600), in: zone)
        #expect(span.start == LocalDate(dayNumber: monday.dayNumber - 1).interval(in: zone).start)
        #expect(span.end == monday.interval(in: zone).end)
        let sameDay = Shift(
            id: 2, driverNetID: try NetID("driver1"), vanID: 1, vanName: "Van 1", startedAt: Date(timeIntervalSince1970: 1_795_410_000 + 60))
        #expect(sameDay.runSpan(at: Date(timeIntervalSince1970: 1_795_410_000 + 7_200), in: zone) == monday.interval(in: zone))
        // At 11:55 PM it reaches three hours into Tuesday: her 12:05 AM pickup is on the run.
        let lateEvening = monday.interval(in: zone).end.addingTimeInterval(-300)
        #expect(
            sameDay.runSpan(at: lateEvening, in: zone)
                == DateInterval(start: monday.interval(in: zone).start, end: lateEvening.addingTimeInterval(3 * 3_600)))
    }

    @Test func positionsComeFromTheShiftsDriverOrTheVansTrackerAndGoStale() async throws {
        var settings = RoadSettings()
        settings.positionStale = 120
        settings.trailDays = 30
        let f = try await RoadFixture(settings: settings)
        let van1 = try await f.van("Van 1"), van2 = try await f.van("Van 2")
        let fix = try PositionFix(lat: 41.3163, lon: -72.9224, accuracyMeters: 8)
        await #expect(throws: RoadError.notYourVan) { try await f.road.positions.record(fix, vanID: van1, from: .driver(f.driver1)) }
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: van1)
        await #expect(throws: RoadError.notYourVan) { try await f.road.positions.record(fix, vanID: van2, from: .driver(f.driver1)) }
        let recorded = try #require(try await f.road.positions.record(fix, vanID: van1, from: .driver(f.driver1)))
        #expect(recorded.at == f.clock.now && recorded.source == .driver)
        #expect(try await f.road.positions.current(vanID: van1) == recorded)
        // A tracker token posts for its own van only; a new token replaces the old.
        let (_, old) = try await f.road.trackers.issue(vanNamed: "Van 2", actor: "dana")
        let (_, token) = try await f.road.trackers.issue(vanNamed: "Van 2", actor: "dana")
        #expect(try await f.road.trackers.van(forToken: old.rawValue) == nil)
        let tokenVan = try #require(try await f.road.trackers.van(forToken: token.rawValue))
        #expect(tokenVan == van2)
        await #expect(throws: RoadError.trackerNotForVan) { try await f.road.positions.record(fix, vanID: van1, from: .tracker(vanID: tokenVan)) }
        #expect(try await f.count("SELECT count(*) FROM van_tracker_tokens WHERE token_sha256 = \(token.digest)") == 1)
        // An older fix joins the trail but does not move the van back.
        let earlier = try PositionFix(lat: 41.30, lon: -72.90, at: f.clock.now.addingTimeInterval(-30))
        _ = try await f.road.positions.record(earlier, vanID: van1, from: .driver(f.driver1))
        #expect(try await f.road.positions.latest(vanID: van1) == recorded)
        // A fix from the future is refused.
        await #expect(throws: RoadError.fixInFuture) {
            try await f.road.positions.record(
                try PositionFix(lat: 41.3, lon: -72.9, at: f.clock.now.addingTimeInterval(600)), vanID: van1, from: .driver(f.driver1))
        }
        f.clock.advance(by: 121)
        #expect(try await f.road.positions.current(vanID: van1) == nil)
        #expect(try await f.road.positions.latest(vanID: van1) == recorded)
        // The trail is pruned after its days.
        f.clock.advance(by: 31 * 86_400)
        #expect(try await f.road.positions.pruneTrail() == 2)
        #expect(try await f.count("SELECT count(*) FROM van_trail") == 0)
        await f.db.close()
    }
}
