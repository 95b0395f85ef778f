import Foundation
import Testing
import VanPostgres
import VanScheduler
import VanServices
import VanTestSupport

/// `vanadmin scheduler show|set`, the real binary: the room kept for will-calls, the road as learned.
@Suite("vanadmin scheduler")
struct SchedulerCommandTests {
    @Test func theRoomKeptForWillCallsIsSetShownAndTurnedOff() async throws {
        let world = try await DispatchWorld()
        func stored() async throws -> SchedulerSettings { try await ServiceCalendarStore(pool: world.pool, timeZone: world.zone).settings() }
        #expect(try world.vanadmin(["scheduler", "show"]).stdout.contains("off: her call is served from the room there is"))

        let set = try world.vanadmin(["scheduler", "set", "--will-call-hold", "90", "--as", "dispatcher"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try await stored().willCallHoldMinutes == 90)
        #expect(try await stored().windowMinutes == 0, "the other figures keep their values")
        #expect(
            try world.vanadmin(["scheduler", "show"]).stdout.contains("kept for each open will-call from 90 min after the ride there's drop-off"))

        let bad = try world.vanadmin(["scheduler", "set", "--will-call-hold", "soon", "--as", "dispatcher"])
        #expect(bad.status != 0)
        #expect(bad.stderr.trimmingCharacters(in: .newlines) == "Error: --will-call-hold must be 0 to 480 minutes, or off", "\(bad.stderr)")
        #expect(try await stored().willCallHoldMinutes == 90, "a refused change changes nothing")

        #expect(try world.vanadmin(["scheduler", "set", "--will-call-hold", "off", "--as", "dispatcher"]).status == 0)
        #expect(try await stored().willCallHoldMinutes == nil)

        // The road's speed as learned shows beside the model's.
        #expect(try world.vanadmin(["scheduler"]).stdout.contains("not learned yet: drives take the model's times"))
        try await world.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO road_speeds (hour, factor, samples, squares, learned_through, updated_at)
                VALUES (-1, 1.24, 412, 1.6276, now(), now()), (8, 1.31, 60, 1.8061, now(), now()), (9, 1.1, 3, 1.30, now(), now())
                """)
        }
        #expect(
            try world.vanadmin(["scheduler"]).stdout.contains("drives take 1.24 × the model's times (412 legs); by hour: 08:00 1.31 ×"))
        // The office may drive on the model as set: the learned speed is then not used.
        #expect(try world.vanadmin(["scheduler", "set", "--road-speed", "model", "--as", "dispatcher"]).status == 0)
        #expect(try world.vanadmin(["scheduler"]).stdout.contains("off: every drive takes the model's time"))
        let scheduler = try await ServiceCalendarStore(pool: world.pool, timeZone: world.zone).scheduler(around: world.at(9))
        #expect(scheduler.estimator.averageSpeedKmh == (try await stored()).estimator.averageSpeedKmh)
        #expect(try world.vanadmin(["scheduler", "set", "--road-speed", "fast", "--as", "dispatcher"]).status != 0)
        #expect(try world.vanadmin(["scheduler", "set", "--road-speed", "learned", "--as", "dispatcher"]).status == 0)
        let learned = try await ServiceCalendarStore(pool: world.pool, timeZone: world.zone).scheduler(around: world.at(9))
        #expect(abs(learned.estimator.averageSpeedKmh - (try await stored()).estimator.averageSpeedKmh / 1.24) < 1e-9)
    }
}
