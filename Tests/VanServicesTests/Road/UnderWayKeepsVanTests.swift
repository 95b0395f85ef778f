import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// A ride with a driver's tap standing at its pickup is under way: it stays on its van, whoever
/// writes (sql/0033, DispatchService.move, the planner).
@Suite("A ride under way stays on its van")
struct UnderWayKeepsVanTests {
    @Test func theDatabaseRefusesToMoveATappedRideAndAllowsItOnceTheTapIsUndone() async throws {
        let f = try await RoadFixture()
        let ride = try await f.approvedRide(0, at: f.monday(10))
        let van1 = try await f.van("Van 1"), van2 = try await f.van("Van 2")
        #expect(ride.vanID == van1)
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: van1)
        f.clock.set(f.monday(10))
        let key = UUID()
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .arrived, key: key))

        let refused = try await #require(throws: PGError.self) {
            try await f.db.pool.withConnection { try $0.execute("UPDATE rides SET van_id = \(van2) WHERE id = \(ride.id)") }
        }
        #expect(refused.sqlState == .checkViolation && refused.constraint == "rides_under_way_keeps_van", "\(refused)")
        #expect(refused.message.contains("under way"), "\(refused)")
        #expect(try await f.count("SELECT count(*) FROM rides WHERE id = \(ride.id) AND van_id = \(van1)") == 1)
        // Writing the same van (the planner's and the dispatcher's updates do) is no change of van.
        try await f.db.pool.withConnection { try $0.execute("UPDATE rides SET van_id = \(van1), updated_at = now() WHERE id = \(ride.id)") }

        // The driver undoes the arrival: the ride is free to move again.
        _ = try await f.road.taps.undo(driver: f.driver1, tapKey: key)
        try await f.db.pool.withConnection { try $0.execute("UPDATE rides SET van_id = \(van2) WHERE id = \(ride.id)") }
        #expect(try await f.count("SELECT count(*) FROM rides WHERE id = \(ride.id) AND van_id = \(van2)") == 1)
        await f.db.close()
    }

    @Test func theDispatchersMoveOfARideUnderWayIsRefusedWithWhyAndWhatToDoAndChangesNothing() async throws {
        let f = try await RoadFixture()
        let ride = try await f.approvedRide(0, at: f.monday(10))
        let van1 = try await f.van("Van 1")
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: van1)
        let dispatch = DispatchService(pool: f.db.pool, timeZone: f.zone)
        let audited = try await f.count("SELECT count(*) FROM audit_log WHERE action = 'ride.move'")

        f.clock.set(f.monday(10))
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .arrived))
        let atCurb = try await #require(throws: DispatchService.DispatchError.self) {
            try await dispatch.move(ride.ref.rawValue, at: nil, van: "Van 2", actor: "dana", now: f.clock.now)
        }
        guard case .underWay(let sentence) = atCurb else { throw TestFailure("expected underWay, got \(atCurb)") }
        #expect(sentence.hasPrefix("Van 1 is at the pickup (arrived 10:00 AM): a ride under way stays on its van"), "\(sentence)")

        f.clock.set(f.monday(10, 1))
        _ = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, .pickup, .boarded))
        let aboard = try await #require(throws: DispatchService.DispatchError.self) {
            try await dispatch.move(ride.ref.rawValue, at: nil, van: "Van 2", actor: "dana", now: f.clock.now)
        }
        #expect(
            aboard.description.hasPrefix("the rider is on board Van 1 (boarded 10:01 AM): a ride under way stays on its van"),
            "\(aboard)")
        #expect(aboard.description.contains("Call Van 1's driver"))
        // A new time on the same van is refused too: the road, not a plan, sets its times now.
        await #expect(throws: DispatchService.DispatchError.self) {
            try await dispatch.move(ride.ref.rawValue, at: f.monday(10, 30), van: nil, actor: "dana", now: f.clock.now)
        }
        // Nothing changed: the van, the times, the audit log.
        #expect(
            try await f.count(
                """
                SELECT count(*) FROM rides WHERE id = \(ride.id) AND van_id = \(van1) AND pickup_at = \(ride.pickupAt)
                  AND estimated_dropoff_at = \(ride.estimatedDropoffAt) AND status = 'approved'
                """) == 1)
        #expect(try await f.count("SELECT count(*) FROM audit_log WHERE action = 'ride.move'") == audited)
        await f.db.close()
    }
}
