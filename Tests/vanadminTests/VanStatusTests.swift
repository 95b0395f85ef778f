import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres
import VanScheduler

/// `vanadmin vans status`: the service on an injected clock, and the real command.
@Suite("vans status: driver, position age, next stop, minutes late")
struct VanStatusTests {
    typealias T = RoadDay
    static let zone = TimeZone(identifier: "America/New_York")!

    /// At 10:30: Van 1 (Dee's open shift) last seen 12 s ago, its next stop a pickup planned at
    /// 10:20 not yet reached; Van 2 (no open shift) last seen 10 min ago, its rider aboard, the
    /// drop-off planned at 10:40; Van 3 (Eli) never seen, arrived at 10:16 at a pickup planned 10:10
    /// (and a pickup planned 10:00 left untapped).
    static func seed(_ db: Database) async throws {
        let day = RoadDay(pool: db.pool)
        try await day.fleet()
        try await day.shift("dee", "Van 1", from: T.at(6, 0))
        try await day.shift("eli", "Van 2", from: T.at(6, 0), to: T.at(10, 10))
        try await day.shift("eli", "Van 3", from: T.at(10, 12))
        try await day.position("Van 1", at: T.at(10, 29, 48))
        try await day.position("Van 2", at: T.at(10, 20))
        // Van 1: a ride done this morning, the one due, one later.
        let done = try await day.ride("Van 1", window: (T.at(8, 0), T.at(8, 15)), pickup: T.at(8, 0), dropoff: T.at(8, 20), status: "completed")
        try await day.tap(done.id, "pickup", "boarded", at: T.at(8, 2), by: "dee")
        try await day.tap(done.id, "dropoff", "dropped_off", at: T.at(8, 22), by: "dee")
        try await day.ride(
            "Van 1", window: (T.at(10, 15), T.at(10, 30)), pickup: T.at(10, 20), dropoff: T.at(10, 40), status: "approved", from: "Hall A")
        try await day.ride("Van 1", window: (T.at(11, 0), T.at(11, 15)), pickup: T.at(11, 0), dropoff: T.at(11, 20), status: "approved")
        // Van 2: the rider boarded at 10:06; the drop-off is next.
        let aboard = try await day.ride(
            "Van 2", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 5), dropoff: T.at(10, 40), maxRide: 2_400, status: "approved")
        try await day.tap(aboard.id, "pickup", "arrived", at: T.at(10, 4), by: "eli")
        try await day.tap(aboard.id, "pickup", "boarded", at: T.at(10, 6), by: "eli")
        // Van 3: arrived 6 min after the planned time, the rider not yet aboard; an earlier stop
        // left untapped does not make it the next.
        try await day.ride("Van 3", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 0), dropoff: T.at(10, 20), status: "approved")
        let waiting = try await day.ride(
            "Van 3", window: (T.at(10, 10), T.at(10, 25)), pickup: T.at(10, 10), dropoff: T.at(10, 30), status: "approved")
        try await day.tap(waiting.id, "pickup", "arrived", at: T.at(10, 16), by: "eli")
    }

    static func etas(_ db: Database, stale: TimeInterval) -> ETAService {
        var settings = EventSettings()
        settings.positionStale = stale
        return ETAService(pool: db.pool, settings: settings, timeZone: zone)
    }

    @Test func eachVansDriverPositionNextStopAndLatenessOnAnInjectedClock() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        try await Self.seed(db)
        let clock = ManualClock(T.at(10, 30))
        let eta = Self.etas(db, stale: 120)
        var vans = try await VanStatusBoard.load(pool: db.pool, eta: eta, timeZone: Self.zone, now: clock.now, stale: 120)
        #expect(vans.map(\.van) == ["Van 1", "Van 2", "Van 3"])
        #expect(vans[0].driver == "dee" && vans[0].driverName == "Dee Park")
        #expect(vans[0].positionAgeSeconds == 12 && vans[0].positionKnown)
        #expect(vans[0].nextStop?.stop == .pickup)
        #expect(vans[0].nextStop?.place == "Hall A")
        #expect(vans[0].nextStop?.plannedAt == T.at(10, 20))
        #expect(vans[0].nextStop?.rider == "Ann L.")
        // Van 1 is on the road: its lateness is its ETA against the window's end (10:30), by the one rule.
        let van1 = try #require(try await eta.van(try await Self.vanID(db, "Van 1"), now: clock.now))
        let eta1 = try #require(van1.estimates.first?.arrival)
        #expect(eta1 >= clock.now && vans[0].nextStop?.eta == eta1)
        #expect(vans[0].nextStop?.minutesLate == Lateness(at: eta1, windowEnd: T.at(10, 30)).minutes)
        #expect(vans[0].nextStop?.minutesBehindPlan == Lateness.behindPlanMinutes(eta1, plannedAt: T.at(10, 20)))
        #expect((vans[0].nextStop?.minutesBehindPlan ?? 0) >= 10)
        // Van 2 has no shift (no ETA), and its next stop, a pickup ride's drop-off, carries no promise.
        #expect(vans[1].driver == nil)
        #expect(vans[1].positionAgeSeconds == 600 && !vans[1].positionKnown)
        #expect(vans[1].nextStop?.stop == .dropoff && vans[1].nextStop?.plannedAt == T.at(10, 40))
        #expect(vans[1].nextStop?.minutesLate == nil && vans[1].nextStop?.eta == nil)
        #expect(vans[1].nextStop?.minutesBehindPlan == 0)
        // Van 3 arrived at 10:16, inside the window (to 10:25): on time, and 6 min behind the plan's 10:10.
        #expect(vans[2].driver == "eli" && vans[2].driverName == nil)
        #expect(vans[2].positionAgeSeconds == nil && !vans[2].positionKnown)
        #expect(vans[2].nextStop?.arrivedAt == T.at(10, 16))
        #expect(vans[2].nextStop?.minutesLate == 0)
        #expect(vans[2].nextStop?.minutesBehindPlan == 6)

        // Two minutes on: Van 1's position is stale, and its stop not reached is at least 2 min
        // past the window (its ETA is no sooner than now); Van 3's figures stay at its arrival.
        clock.advance(by: 120)
        vans = try await VanStatusBoard.load(pool: db.pool, eta: eta, timeZone: Self.zone, now: clock.now, stale: 120)
        #expect(vans[0].positionAgeSeconds == 132 && !vans[0].positionKnown)
        #expect((vans[0].nextStop?.minutesLate ?? 0) >= 2)
        #expect((vans[0].nextStop?.minutesBehindPlan ?? 0) >= 12)
        #expect(vans[2].nextStop?.minutesLate == 0 && vans[2].nextStop?.minutesBehindPlan == 6)
        // A longer setting makes Van 2's position usable again.
        vans = try await VanStatusBoard.load(pool: db.pool, eta: eta, timeZone: Self.zone, now: clock.now, stale: 900)
        #expect(vans[1].positionKnown)
        await db.close()
        cli.cleanUp()
    }

    @Test func withoutAnETAAStopNotReachedIsAsLateAsNowPastItsWindow() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        try await Self.seed(db)
        let vans = try await VanStatusBoard.load(pool: db.pool, eta: nil, timeZone: Self.zone, now: T.at(10, 33, 30), stale: 120)
        // Van 1's pickup, window to 10:30, not reached at 10:33:30: 3 whole minutes late, 13 behind the plan's 10:20.
        #expect(vans[0].nextStop?.eta == nil)
        #expect(vans[0].nextStop?.minutesLate == 3 && vans[0].nextStop?.minutesBehindPlan == 13)
        await db.close()
        cli.cleanUp()
    }

    static func vanID(_ db: Database, _ name: String) async throws -> Int64 {
        try await db.pool.withConnection { try $0.query("SELECT id FROM vans WHERE name = \(name)").first!.decode(Int64.self, at: 0) }
    }

    /// The real command on the real clock: a position 5 s old is fresh, one 10 min old unknown
    /// (until VAND_POSITION_STALE says otherwise), and the next stop's lateness is whole minutes
    /// since its planned time.
    @Test func theCommandPrintsEachVanAndItsJSON() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        let day = RoadDay(pool: db.pool)
        try await day.fleet()
        let now = Date()
        try await day.shift("dee", "Van 1", from: now.addingTimeInterval(-3_600))
        try await day.position("Van 1", at: now.addingTimeInterval(-5))
        try await day.position("Van 2", at: now.addingTimeInterval(-600))
        // Planned 10.5 min ago (or at the day's start just after midnight: the run is today's rides),
        // a one-minute window, and the van arrived 5 min 10 s after the planned time: 4 whole
        // minutes past the window, 5 behind the plan.
        let planned = max(now.addingTimeInterval(-630), LocalDate(containing: now, in: Self.zone).interval(in: Self.zone).start)
        let ride = try await day.ride(
            "Van 1", window: (planned, planned.addingTimeInterval(60)), pickup: planned,
            dropoff: planned.addingTimeInterval(1_200), status: "approved", from: "Hall A")
        try await day.tap(ride.id, "pickup", "arrived", at: planned.addingTimeInterval(310), by: "dee")
        let environment = ["VAND_TIMEZONE": "America/New_York"]
        let result = try await cli.run("vans", "status", "--json", environment: environment)
        let after = Date()
        #expect(result.status == 0, "\(result.stderr)")
        let vans = try #require(try cli.json(result) as? [[String: Any]])
        #expect(vans.map { $0["van"] as? String } == ["Van 1", "Van 2", "Van 3"])
        #expect(vans[0]["driver"] as? String == "dee")
        #expect(vans[0]["position_known"] as? Bool == true)
        let age = try #require(vans[0]["position_age_seconds"] as? Int)
        #expect(age >= 5 && Double(age) <= after.timeIntervalSince(now) + 5)
        #expect(vans[1]["position_known"] as? Bool == false)
        #expect(vans[2]["position_age_seconds"] == nil)
        let next = try #require(vans[0]["next_stop"] as? [String: Any])
        #expect(next["rider"] as? String == "Ann L.")
        #expect(next["place"] as? String == "Hall A")
        #expect(next["stop"] as? String == "pickup")
        #expect(next["minutes_late"] as? Int == 4)
        #expect(next["minutes_behind_plan"] as? Int == 5)

        let table = try await cli.run("vans", "status", environment: environment)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("VAN") == true)
        let van1 = try #require(lines.first { $0.hasPrefix("Van 1") })
        #expect(
            van1.contains("dee (Dee Park)") && van1.contains(" s ago") && van1.contains("pick up") && van1.contains("Ann L.")
                && van1.contains("4 min") && van1.contains("5 min"))
        #expect(lines.first { $0.hasPrefix("Van 2") }?.contains("unknown") == true)
        let longer = try await cli.run("vans", "status", environment: environment.merging(["VAND_POSITION_STALE": "3600"]) { $1 })
        #expect(longer.stdout.split(separator: "\n").first { $0.hasPrefix("Van 2") }?.contains("10 min ago") == true)
        let bad = try await cli.run("vans", "status", environment: environment.merging(["VAND_POSITION_STALE": "soon"]) { $1 })
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("VAND_POSITION_STALE") && bad.stderr.split(separator: "\n").count == 1)
        await db.close()
        cli.cleanUp()
    }

    @Test func aRidersShortNameIsTheFirstNameAndInitial() {
        #expect(VanStatus.shortName("Ann Lee", netID: "ann1") == "Ann L.")
        #expect(VanStatus.shortName("  Mary Ann  Smith ", netID: "ms2") == "Mary S.")
        #expect(VanStatus.shortName("Cher", netID: "ch1") == "Cher")
        #expect(VanStatus.shortName(nil, netID: "ann1") == "ann1")
        #expect(VanStatus.shortName("   ", netID: "ann1") == "ann1")
    }
}
