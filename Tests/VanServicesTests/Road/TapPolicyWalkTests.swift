import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

/// The driver is offered exactly what the service takes: on random walks of taps and time over
/// a ride, every tap the run offers (``RunStop/nextActions``, a waiting no-show aside) is
/// applied, and every other is refused or answered as already done. The run and the taps both
/// ask ``RidePolicy``; this holds them to each other.
@Suite("The driver's run offers exactly the taps the service takes")
struct TapPolicyWalkTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func offeredTapsAreTakenAndOthersAreNot(seed: UInt64) async throws {
        var settings = RoadSettings()
        settings.noShowWait = 300
        let f = try await RoadFixture(settings: settings)
        let ride = try await f.approvedRide(0, at: f.monday(10))
        _ = try await f.road.shifts.start(driver: f.driver1, vanID: try await f.van("Van 1"))
        f.clock.set(f.monday(9, 52))
        var rng = SeededGenerator(seed: seed)
        var applied = 0, refused = 0
        for _ in 0..<30 {
            let stops = try await f.road.runs.run(driver: f.driver1).stops.filter { $0.rideID == ride.id }
            let stop = try #require(stops.randomElement(using: &rng))
            // Half the time one of the offered taps, to walk deeper into the ride; else any tap.
            let pool = Bool.random(using: &rng) && !stop.nextActions.isEmpty ? stop.nextActions : TapAction.allCases
            let action = try #require(pool.randomElement(using: &rng))
            let offered = stop.nextActions.contains(action) && !(action == .noShow && stop.noShowRefusal != nil)
            do {
                let result = try await f.road.taps.tap(driver: f.driver1, f.tap(ride, stop.stop, action))
                #expect(offered == (result.outcome == .applied), "\(action) at \(stop.stop): offered \(offered), \(result.outcome)")
                if result.outcome == .applied { applied += 1 }
            } catch let error as RoadError {
                #expect(!offered, "\(action) at \(stop.stop) was offered but refused: \(error)")
                refused += 1
            }
            f.clock.advance(by: TimeInterval(Int.random(in: 0...180, using: &rng)))
        }
        // The walk did both: some taps went through, some were refused.
        #expect(applied > 0 && refused > 0, "applied \(applied), refused \(refused)")
        await f.db.close()
    }
}
