import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

/// `vanadmin report`'s on-time performance and `--csv`, on a day of taps written with SQL.
/// Every figure is worked out by hand below from the taps.
@Suite("vanadmin report: on-time performance from the drivers' taps (real binary, real database)")
struct VanAdminOnTimeTests {
    typealias T = RoadDay

    /// The day (local times, 2026-11-16):
    ///
    /// | ride | van | promise | window | taps (pickup; drop-off) | pickup | wait | aboard (limit) |
    /// | R1 | 1 | pickup | 10:00–10:15 | 10:07 arrived, 10:09 on board; 10:27, 10:28 | on time | 2 | 18 (30) |
    /// | R2 | 1 | pickup | 11:00–11:15 | 11:21, 11:25; 11:50, 11:51 | late 6 | 4 | 25 (20): over 5 |
    /// | R3 | 1 | pickup | 12:00–12:15 | 12:03, 12:05; 12:25, 12:26 | on time | 2 | 20 (30) |
    /// | R4 | 1 | pickup | 13:00–13:15 | 13:10 arrived, 13:16 no-show | on time | – | – |
    /// | R5 | 2 | pickup | 10:00–10:15 | 9:58, 10:00; 10:15, 10:16 | early 2 | 2 | 15 (30) |
    /// | R6 | 2 | arrive by 11:00 | 10:45–11:00 | 10:22, 10:23; 11:04, 11:05 | (drop-off late 4) | 1 | 41 (40): over 1 |
    /// | R7 | 2 | pickup | 14:00–14:15 | an "arrived" at 14:02, undone | not recorded | – | – |
    /// | R8 | 1 | cancelled, no taps: no stop |
    ///
    /// Dee drives Van 1 (06:00–18:00), Eli Van 2 (06:00–15:00). The places are typed addresses,
    /// so the direct ride is the estimate's unknown leg: 2 min boarding + 15 min = 17 min.
    struct Day {
        let refs: [String]
    }

    static func seed(_ cli: CLI) async throws -> Day {
        let db = cli.database()
        let day = RoadDay(pool: db.pool)
        try await day.fleet()
        try await day.shift("dee", "Van 1", from: T.at(6, 0), to: T.at(18, 0))
        try await day.shift("eli", "Van 2", from: T.at(6, 0), to: T.at(15, 0))
        let r1 = try await day.ride(
            "Van 1", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 5), dropoff: T.at(10, 25),
            status: "completed", from: "Hall \"A\", room 2")
        let r2 = try await day.ride(
            "Van 1", window: (T.at(11, 0), T.at(11, 15)), pickup: T.at(11, 0), dropoff: T.at(11, 20), maxRide: 1_200, status: "completed")
        let r3 = try await day.ride(
            "Van 1", window: (T.at(12, 0), T.at(12, 15)), pickup: T.at(12, 0), dropoff: T.at(12, 20),
            status: "completed", from: "=HYPERLINK(\"x\")")
        let r4 = try await day.ride("Van 1", window: (T.at(13, 0), T.at(13, 15)), pickup: T.at(13, 5), dropoff: T.at(13, 25), status: "no_show")
        let r5 = try await day.ride("Van 2", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 0), dropoff: T.at(10, 20), status: "completed")
        let r6 = try await day.ride(
            "Van 2", promise: "arrive_by", window: (T.at(10, 45), T.at(11, 0)), pickup: T.at(10, 20), dropoff: T.at(10, 50),
            maxRide: 2_400, status: "completed")
        let r7 = try await day.ride("Van 2", window: (T.at(14, 0), T.at(14, 15)), pickup: T.at(14, 0), dropoff: T.at(14, 20), status: "approved")
        let r8 = try await day.ride("Van 1", window: (T.at(15, 0), T.at(15, 15)), pickup: T.at(15, 0), dropoff: T.at(15, 20), status: "cancelled")
        for (ride, driver, taps) in [
            (
                r1.id, "dee",
                [
                    ("pickup", "arrived", T.at(10, 7)), ("pickup", "boarded", T.at(10, 9)), ("dropoff", "arrived", T.at(10, 27)),
                    ("dropoff", "dropped_off", T.at(10, 28)),
                ]
            ),
            (
                r2.id, "dee",
                [
                    ("pickup", "arrived", T.at(11, 21)), ("pickup", "boarded", T.at(11, 25)), ("dropoff", "arrived", T.at(11, 50)),
                    ("dropoff", "dropped_off", T.at(11, 51)),
                ]
            ),
            (
                r3.id, "dee",
                [
                    ("pickup", "arrived", T.at(12, 3)), ("pickup", "boarded", T.at(12, 5)), ("dropoff", "arrived", T.at(12, 25)),
                    ("dropoff", "dropped_off", T.at(12, 26)),
                ]
            ),
            (r4.id, "dee", [("pickup", "arrived", T.at(13, 10)), ("pickup", "no_show", T.at(13, 16))]),
            (
                r5.id, "eli",
                [
                    ("pickup", "arrived", T.at(9, 58)), ("pickup", "boarded", T.at(10, 0)), ("dropoff", "arrived", T.at(10, 15)),
                    ("dropoff", "dropped_off", T.at(10, 16)),
                ]
            ),
            (
                r6.id, "eli",
                [
                    ("pickup", "arrived", T.at(10, 22)), ("pickup", "boarded", T.at(10, 23)), ("dropoff", "arrived", T.at(11, 4)),
                    ("dropoff", "dropped_off", T.at(11, 5)),
                ]
            ),
        ] {
            for (stop, action, at) in taps { try await day.tap(ride, stop, action, at: at, by: driver) }
        }
        try await day.tap(r7.id, "pickup", "arrived", at: T.at(14, 2), by: "eli", undone: T.at(14, 3))
        await db.close()
        return Day(refs: [r1.ref, r2.ref, r3.ref, r4.ref, r5.ref, r6.ref, r7.ref, r8.ref])
    }

    static let environment = ["VAND_TIMEZONE": "America/New_York"]

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// `{count, mean, p95}` as numbers (nil when absent).
    static func spread(_ value: Any?) -> [Double?] {
        let object = value as? [String: Any]
        return [number(object?["count"]), number(object?["mean"]), number(object?["p95"])]
    }

    @Test func theFiguresAreTheTapsJudgedAgainstThePromises() async throws {
        let cli = try await CLI.make()
        _ = try await Self.seed(cli)
        let result = try await cli.run("report", "--from", "2026-11-16", "--to", "2026-11-16", "--json", environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try cli.json(result) as? [String: Any])
        #expect(json["requests"] as? Int == 8)  // the office's numbers are still there
        let onTime = try #require(json["on_time"] as? [String: Any])
        let all = try #require(onTime["overall"] as? [String: Any])
        // Promised pickups recorded: R1–R5; inside: R1, R3, R4 → 3 of 5. R7 is not recorded (its one tap was undone).
        #expect(all["pickups_recorded"] as? Int == 5)
        #expect(all["pickups_on_time"] as? Int == 3)
        #expect(Self.number(all["pickup_on_time_share"]) == 0.6)
        #expect(Self.spread(all["pickups_early"]) == [1, 2, 2])
        #expect(Self.spread(all["pickups_late"]) == [1, 6, 6])
        #expect(all["pickups_not_recorded"] as? Int == 1)
        // Arrive-by: R6 reached the drop-off at 11:04, 4 min after 11:00.
        #expect(all["arrive_by_recorded"] as? Int == 1)
        #expect(all["arrive_by_on_time"] as? Int == 0)
        #expect(Self.number(all["arrive_by_on_time_share"]) == 0)
        #expect(Self.spread(all["arrive_by_late"]) == [1, 4, 4])
        // Aboard 18, 25, 20, 15, 41 min against limits 30, 20, 30, 30, 40: 3 of 5 within; over by 5 and 1.
        #expect(all["ride_times_recorded"] as? Int == 5)
        #expect(all["ride_times_within_limit"] as? Int == 3)
        #expect(Self.spread(all["ride_times_over_limit"]) == [2, 3, 5])
        // ÷ 17 min direct: (18 + 25 + 20 + 15 + 41) / 17 / 5 = 7 / 5; the largest, 41/17, is the p95 of five.
        let ratio = Self.spread(all["ride_time_over_direct"])
        #expect(ratio[0] == 5)
        #expect(abs((ratio[1] ?? 0) - 1.4) < 1e-9)
        #expect(abs((ratio[2] ?? 0) - 41.0 / 17) < 1e-9)
        // Waits 2, 4, 2, 2, 1: mean 2.2; p95 of five is the largest.
        let waits = Self.spread(all["waits"])
        #expect(waits[0] == 5 && abs((waits[1] ?? 0) - 2.2) < 1e-9 && waits[2] == 4)
        #expect(all["no_shows"] as? Int == 1)
        #expect(all["stops_not_recorded"] as? Int == 2)  // R7's pickup and drop-off
        #expect(all["stops_upcoming"] as? Int == 0)

        func group(_ list: String, _ key: String) throws -> [String: Any] {
            let groups = try #require(onTime[list] as? [[String: Any]])
            return try #require(groups.first { $0["key"] as? String == key }?["figures"] as? [String: Any])
        }
        // Van 1 (and Dee): 4 pickups, 3 inside → 75 %, one late by 6; R4's no-show.
        for van1 in [try group("by_van", "Van 1"), try group("by_driver", "dee")] {
            #expect(van1["pickups_recorded"] as? Int == 4)
            #expect(Self.number(van1["pickup_on_time_share"]) == 0.75)
            #expect(Self.spread(van1["pickups_late"]) == [1, 6, 6])
            #expect(van1["no_shows"] as? Int == 1)
            #expect(van1["stops_not_recorded"] as? Int == 0)
        }
        // Van 2: R5 early by 2 is its one recorded pickup; R7 was due on Eli's shift and not recorded.
        let van2 = try group("by_van", "Van 2")
        #expect(van2["pickups_recorded"] as? Int == 1)
        #expect(Self.number(van2["pickup_on_time_share"]) == 0)
        #expect(Self.spread(van2["pickups_early"]) == [1, 2, 2])
        #expect(van2["stops_not_recorded"] as? Int == 2)
        #expect(try group("by_driver", "eli")["stops_not_recorded"] as? Int == 2)
        #expect((onTime["by_day"] as? [[String: Any]])?.map { $0["key"] as? String } == ["2026-11-16"])
        cli.cleanUp()
    }

    @Test func theTableShowsTheSharesAndTheSpreads() async throws {
        let cli = try await CLI.make()
        _ = try await Self.seed(cli)
        let result = try await cli.run("report", "--from", "2026-11-16", "--to", "2026-11-16", environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("pickups inside their window") && $0.hasSuffix("60% (3 of 5)") })
        #expect(lines.contains { $0.hasPrefix("late pickups") && $0.hasSuffix("1: mean 6.0, p95 6.0") })
        #expect(lines.contains { $0.hasPrefix("arrive-by drop-offs on time") && $0.hasSuffix("0% (0 of 1)") })
        #expect(lines.contains { $0.hasPrefix("wait at the stop") && $0.hasSuffix("5: mean 2.2, p95 4.0") })
        #expect(lines.contains { $0.hasPrefix("ride time / direct ride") && $0.hasSuffix("mean 1.40, p95 2.41") })
        let van1 = try #require(lines.first { $0.hasPrefix("Van 1 ") && $0.contains("%") })
        #expect(van1.contains("75% (3 of 4)"))
        let dee = try #require(lines.first { $0.hasPrefix("dee ") })
        #expect(dee.contains("75% (3 of 4)"))
        cli.cleanUp()
    }

    @Test func theCSVHasEveryStopOneRowEachEscaped() async throws {
        let cli = try await CLI.make()
        let day = try await Self.seed(cli)
        let result = try await cli.run("report", "--from", "2026-11-16", "--to", "2026-11-16", "--csv", environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let csv = try CSV(result.stdout)
        #expect(
            csv.header == [
                "ride_ref", "day", "van", "driver", "stop", "place", "promise", "window_start", "window_end",
                "planned", "arrived", "departed", "outcome", "on_time", "minutes_late",
            ])
        // 7 rides with stops (R8 was cancelled), each a pickup and a drop-off, but R4's rider never boarded.
        #expect(csv.records.count == 13)
        func rows(_ ride: Int) -> [[String]] { csv.records.map(\.fields).filter { $0[0] == day.refs[ride - 1] } }
        #expect(rows(4).count == 1)
        #expect(rows(8).isEmpty)
        #expect(
            rows(2).first == [
                day.refs[1], "2026-11-16", "Van 1", "dee", "pickup", "SCL", "pickup",
                "2026-11-16T11:00:00-05:00", "2026-11-16T11:15:00-05:00", "2026-11-16T11:00:00-05:00",
                "2026-11-16T11:21:00-05:00", "2026-11-16T11:25:00-05:00", "boarded", "late", "6.0",
            ])
        #expect(
            rows(2).last == [
                day.refs[1], "2026-11-16", "Van 1", "dee", "dropoff", "Library", "pickup",
                "2026-11-16T11:00:00-05:00", "2026-11-16T11:15:00-05:00", "2026-11-16T11:20:00-05:00",
                "2026-11-16T11:50:00-05:00", "2026-11-16T11:51:00-05:00", "dropped_off", "", "",
            ])
        #expect(rows(5).first?.suffix(3) == ["boarded", "early", "-2.0"])
        #expect(rows(6).last?.suffix(4) == ["2026-11-16T11:05:00-05:00", "dropped_off", "late", "4.0"])
        #expect(rows(6).last?[6] == "arrive_by")
        #expect(rows(4).first?.suffix(3) == ["no_show", "on time", "0.0"])
        // Not recorded: no times, no minutes, the driver who was on the van then.
        #expect(rows(7).first?[3] == "eli")
        #expect(rows(7).first?.suffix(6) == ["2026-11-16T14:00:00-05:00", "", "", "not recorded", "not recorded", ""])
        // A comma and quotes are quoted; a formula is shown, not run.
        #expect(result.stdout.contains(",\"Hall \"\"A\"\", room 2\","))
        #expect(rows(1).first?[5] == "Hall \"A\", room 2")
        #expect(rows(3).first?[5] == "'=HYPERLINK(\"x\")")
        #expect(result.stdout.hasSuffix("\r\n"))
        cli.cleanUp()
    }

    /// A shift left open is credited with the untapped stops of its own day only: not the next
    /// day's (more than a day after it began), and not any planned after now.
    @Test func anOpenShiftIsNotCreditedWithOtherDaysStops() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        let day = RoadDay(pool: db.pool)
        try await day.fleet()
        try await day.shift("dee", "Van 1", from: T.at(6, 0))
        let today = try await day.ride("Van 1", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 0), dropoff: T.at(10, 20), status: "approved")
        let nextDay = T.at(10, 0).addingTimeInterval(86_400)
        let tomorrow = try await day.ride(
            "Van 1", window: (nextDay, nextDay.addingTimeInterval(900)), pickup: nextDay,
            dropoff: nextDay.addingTimeInterval(1_200), status: "approved")
        let later = try await day.ride("Van 1", window: (T.at(20, 0), T.at(20, 15)), pickup: T.at(20, 0), dropoff: T.at(20, 20), status: "approved")
        let zone = TimeZone(identifier: "America/New_York")!
        let report = try await OnTimeReport.load(
            pool: db.pool, from: try LocalDate("2026-11-16"), to: try LocalDate("2026-11-17"), timeZone: zone,
            now: nextDay.addingTimeInterval(7_200))
        func driver(_ ref: String) -> [String?] { report.stops.filter { $0.rideRef == ref }.map(\.driver) }
        #expect(driver(today.ref) == ["dee", "dee"])
        #expect(driver(later.ref) == ["dee", "dee"], "planned 14 h after the shift began: the same run")
        #expect(driver(tomorrow.ref) == [nil, nil], "28 h after the shift began: not hers")
        let early = try await OnTimeReport.load(
            pool: db.pool, from: try LocalDate("2026-11-16"), to: try LocalDate("2026-11-16"), timeZone: zone,
            now: T.at(12, 0))
        #expect(early.stops.filter { $0.rideRef == later.ref }.map(\.driver) == [nil, nil], "planned after now: not yet anyone's")
        await db.close()
        cli.cleanUp()
    }

    @Test func jsonAndCSVTogetherAreRefused() async throws {
        let cli = try await CLI.make()
        let result = try await cli.run("report", "--from", "2026-11-16", "--to", "2026-11-16", "--csv", "--json")
        #expect(result.status != 0)
        #expect(result.stderr.contains("choose one of --json, --csv, --policy-csv and --denials-csv"))
        #expect(result.stdout.isEmpty)
        cli.cleanUp()
    }
}
