import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// What a no-show on a ride there does to her way back: nothing by default (the legs are separate
/// trips), or, when the office's policy says so, the loop cancels it once the driver's tap stands.
@Suite("The no-show policy and the way back")
struct NoShowReturnTests {
    typealias Fixture = NoShowPolicyPathTests.Fixture

    /// Rider 0's ride there at 10:00 (approved) with a way back at 13:00, and rider 1's ride there
    /// at 11:00 with a will-call.
    func trips(_ f: Fixture) async throws -> (there: Ride, back: Ride, called: Ride) {
        let base = f.road.base
        let out = base.request(0, at: f.road.monday(10))
        var way = base.request(0, at: f.road.monday(13))
        (way.pickup, way.dropoff, way.returnOf) = (out.dropoff, out.pickup, out.id)
        guard case .booked(let there, let back) = try await f.booking.bookTrip(out, way, now: base.now) else { throw TestFailure("trip refused") }
        let called = base.request(1, at: f.road.monday(11))
        guard case .booked(let calledRide)? = try await f.booking.bookSeries([called], now: base.now, willCall: called.dropoff).first else {
            throw TestFailure("will-call refused")
        }
        let dispatch = DispatchService(pool: f.road.db.pool, timeZone: f.road.zone)
        for ride in [there, back, calledRide] { _ = try await dispatch.approve(ride.id.uuidString, van: "Van 1", actor: "test", now: base.now) }
        _ = try await f.road.road.shifts.start(driver: f.road.driver1, vanID: try await f.road.van("Van 1"))
        return (there, back, calledRide)
    }

    @Test func byDefaultANoShowLeavesTheWayBack() async throws {
        let f = try await Fixture()
        let (there, back, called) = try await trips(f)
        try await f.noShow(there, arrivalMinutes: -1)
        try await f.noShow(called, arrivalMinutes: -1)
        f.clock.advance(by: 600)
        #expect(try await f.standing.cancelReturnsAfterNoShows(now: f.clock.now) == 0)
        #expect(try await f.status(back) == "approved")
        #expect(try await f.booking.willCall(of: called.id)?.state == .open)
        f.receiver.stop()
        await f.road.db.close()
    }

    @Test func whenThePolicySaysSoTheLoopCancelsItOnceTheTapStands() async throws {
        let f = try await Fixture()
        var policy = NoShowPolicyPathTests.policy
        policy.noShowCancelsReturn = true
        try await f.standing.setPolicy(policy, actor: "office")
        #expect(try await f.standing.policy().sentences.contains { $0.contains("cancels her way back") })
        let (there, back, called) = try await trips(f)
        try await f.noShow(there, arrivalMinutes: -1)
        // Within the driver's undo window nothing happens: the tap may still be undone.
        #expect(try await f.standing.cancelReturnsAfterNoShows(now: f.clock.now) == 0)
        #expect(try await f.status(back) == "approved")
        try await f.noShow(called, arrivalMinutes: -1)
        f.clock.advance(by: 180)
        #expect(try await f.loop.runOnce(now: f.clock.now).suspensionCancels == 1)
        #expect(try await f.status(back) == "cancelled")
        #expect(
            try await f.road.count(
                "SELECT count(*) FROM rides WHERE id = \(back.id) AND cancelled_by = 'service' AND reason LIKE 'No-show on the ride there%'") == 1)
        #expect(try await f.booking.willCall(of: called.id)?.state == .closed)
        // She hears of it as of any cancellation by the service.
        #expect(try await f.inbox().contains { $0.contains("No-show on the ride there") })
        // A second pass finds nothing more.
        #expect(try await f.standing.cancelReturnsAfterNoShows(now: f.clock.now) == 0)
        f.receiver.stop()
        await f.road.db.close()
    }
}
