import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres
import VanScheduler

/// A migrated database with riders and a fleet, and helpers to book on it.
struct BookingFixture {
    let db: Database
    let booking: BookingService
    let zone = TimeZone(identifier: "America/New_York")!
    /// "Now" for every test: Sunday 2026-11-22 12:00 New York.
    let now = Date(timeIntervalSince1970: 1_795_366_800)
    let scl = try! Coordinate(latitude: 41.31633, longitude: -72.92241)
    let sml = try! Coordinate(latitude: 41.31112, longitude: -72.92880)

    init(vans: [(String, Int, Int)] = [("Van 1", 8, 1)], riders: Int = 60, oneRiderAtATime: Bool = true) async throws {
        db = try await TestCluster.makeDatabase(poolSize: 8)
        booking = BookingService(pool: db.pool, timeZone: zone)
        let fleet = vans
        try await db.pool.withTransaction { conn in
            for (name, seats, wheelchair) in fleet {
                try conn.execute("INSERT INTO vans (name, seats, wheelchair_positions) VALUES (\(name), \(seats), \(wheelchair))")
            }
            for index in 0..<riders {
                try conn.execute("INSERT INTO riders (net_id, password_hash) VALUES (\("rider\(index)"), 'x')")
            }
        }
        if oneRiderAtATime { try await db.oneRiderAtATime() }
    }

    /// Monday 2026-11-23 at `hour`:`minute` New York time.
    func monday(_ hour: Int, _ minute: Int = 0) -> Date {
        // 2026-11-23 00:00 EST is 05:00 UTC.
        Date(timeIntervalSince1970: 1_795_410_000 + Double(hour * 3600 + minute * 60))
    }

    func request(_ rider: Int = 0, at date: Date, wheelchair: Bool = false) -> NewRide {
        NewRide(
            id: .timeOrdered(at: date), netID: try! NetID("rider\(rider)"), pickup: RideEndpoint(coordinate: scl, placeName: "SCL"),
            dropoff: RideEndpoint(coordinate: sml, placeName: "SML"), pickupAt: date, needsWheelchair: wheelchair)
    }

    func count(_ sql: SQLQuery = "SELECT count(*) FROM rides") async throws -> Int {
        try await db.pool.withConnection { try $0.query(sql).first!.decode(Int.self, at: 0) }
    }
}

@Suite("Booking with the optimistic scheduler")
struct BookingServiceTests {
    @Test func mondayHelperIsMidnightInNewYork() {
        let fixture = Date(timeIntervalSince1970: 1_795_410_000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        let parts = calendar.dateComponents([.weekday, .hour, .minute, .day], from: fixture)
        #expect(parts.weekday == 2 && parts.hour == 0 && parts.minute == 0 && parts.day == 23)
    }

    @Test func aFreeTimeIsBookedOnAVanWithItsDropOff() async throws {
        let f = try await BookingFixture()
        let outcome = try await f.booking.book(f.request(at: f.monday(16, 30)), now: f.now)
        guard case .booked(let ride) = outcome else { Issue.record("expected a booking, got \(outcome)"); return }
        #expect(ride.status == .pending)
        #expect(ride.vanID != nil)
        #expect(ride.pickupAt == f.monday(16, 30))
        // SCL→SML is ~730 m: 2 min boarding + 730 m × 1.3 at 20 km/h (~2.8 min) to the drop-off.
        let minutes = ride.estimatedDropoffAt.timeIntervalSince(ride.pickupAt) / 60
        #expect(minutes > 4.5 && minutes < 5.5)
        #expect(ride.pickup.placeName == nil)  // no place id given, so no place joined
        #expect(try await f.count() == 1)
        await f.db.close()
    }

    @Test func aTakenTimeIsRefusedWithTheNearestTimesAndNothingIsWritten() async throws {
        let f = try await BookingFixture()
        guard case .booked = try await f.booking.book(f.request(0, at: f.monday(16, 30)), now: f.now) else {
            Issue.record("first booking failed"); return
        }
        let outcome = try await f.booking.book(f.request(1, at: f.monday(16, 30)), now: f.now)
        guard case .refused(let feasibility, let sentence) = outcome else { Issue.record("expected a refusal"); return }
        #expect(feasibility.reason == .occupied)
        #expect(sentence.hasPrefix("The van is occupied at 4:30 PM. Does "), "\(sentence)")
        let suggestions = feasibility.suggestions
        #expect(suggestions.count == 2)
        // The earlier suggestion ends (plus the zero deadhead back to SCL… not zero: SML→SCL) before 16:30.
        #expect(suggestions.allSatisfy { $0.withinADAWindow })
        #expect(suggestions[0].pickupAt < f.monday(16, 30) && suggestions[1].pickupAt > f.monday(16, 30))
        #expect(try await f.count() == 1)
        // The suggestion is bookable in one more call.
        let retry = try await f.booking.book(f.request(1, at: suggestions[1].pickupAt), now: f.now)
        guard case .booked = retry else { Issue.record("the suggested time was not bookable: \(retry)"); return }
        await f.db.close()
    }

    @Test func fiftyConcurrentBookingsShareAThreeSeatVanAndNeverOverloadIt() async throws {
        let f = try await BookingFixture(vans: [("Van 1", 3, 0)], oneRiderAtATime: false)
        let slot = f.monday(9, 0)
        let outcomes = try await withThrowingTaskGroup(of: BookingOutcome.self) { group in
            for rider in 0..<50 {
                group.addTask { try await f.booking.book(f.request(rider, at: slot), now: f.now) }
            }
            return try await group.reduce(into: [BookingOutcome]()) { $0.append($1) }
        }
        let booked = outcomes.compactMap { if case .booked(let ride) = $0 { ride } else { nil } }
        // Shared: more than one rider rides at once, and more than three fit the window one after another.
        #expect(booked.count > 3)
        // The load aboard, stop by stop, as the database has the route now.
        let rows = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT pickup_at, estimated_dropoff_at FROM rides WHERE ride_holds_van(status)").map {
                (try $0.decode(Date.self, at: 0), try $0.decode(Date.self, at: 1))
            }
        }
        var events: [(at: Date, change: Int)] = []
        for (pickup, dropoff) in rows {
            events.append((pickup, 1))
            events.append((dropoff, -1))
        }
        events.sort { a, b in a.at != b.at ? a.at < b.at : a.change < b.change }
        var aboard = 0, most = 0
        for event in events {
            aboard += event.change
            most = max(most, aboard)
        }
        #expect(most > 1 && most <= 3, "at most \(most) aboard")
        // Every refusal offers a time, and the first offered time is bookable in one more call.
        let refusals = outcomes.compactMap { if case .refused(let feasibility, _) = $0 { feasibility } else { nil } }
        #expect(refusals.count == 50 - booked.count)
        #expect(refusals.allSatisfy { $0.reason == .occupied && !$0.suggestions.isEmpty })
        if let offered = refusals.first?.suggestions.first {
            let retry = try await f.booking.book(f.request(55, at: offered.asked), now: f.now)
            guard case .booked = retry else { Issue.record("the suggested time was not bookable: \(retry)"); return }
        }
        await f.db.close()
    }

    @Test func fiftyConcurrentBookingsForTheLastSlotBookExactlyOne() async throws {
        let f = try await BookingFixture()
        let slot = f.monday(9, 0)
        let outcomes = try await withThrowingTaskGroup(of: BookingOutcome.self) { group in
            for rider in 0..<50 {
                group.addTask { try await f.booking.book(f.request(rider, at: slot), now: f.now) }
            }
            return try await group.reduce(into: [BookingOutcome]()) { $0.append($1) }
        }
        let booked = outcomes.filter { if case .booked = $0 { true } else { false } }
        #expect(booked.count == 1)
        for outcome in outcomes {
            if case .refused(let feasibility, _) = outcome {
                #expect(feasibility.reason == .occupied)
                #expect(!feasibility.suggestions.isEmpty)
            }
        }
        #expect(try await f.count("SELECT count(*) FROM rides WHERE status IN ('pending', 'approved')") == 1)
        await f.db.close()
    }

    @Test func concurrentBookingsAcrossADayNeverOverlapOrBreakDeadhead() async throws {
        let f = try await BookingFixture(vans: [("Van 1", 8, 1), ("Van 2", 8, 0)])
        // 60 riders asking for times packed into two hours: many collide.
        let outcomes = try await withThrowingTaskGroup(of: BookingOutcome.self) { group in
            for rider in 0..<60 {
                group.addTask { try await f.booking.book(f.request(rider, at: f.monday(14, (rider * 7) % 120)), now: f.now) }
            }
            return try await group.reduce(into: [BookingOutcome]()) { $0.append($1) }
        }
        let rides = outcomes.compactMap { if case .booked(let ride) = $0 { ride } else { nil } }
        #expect(rides.count >= 2)
        let estimator = TripEstimator()
        for van in Set(rides.compactMap(\.vanID)) {
            let sorted = rides.filter { $0.vanID == van }.sorted { $0.pickupAt < $1.pickupAt }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                let gap = estimator.deadhead(from: a.dropoff.coordinate, to: b.pickup.coordinate)
                #expect(a.estimatedDropoffAt.addingTimeInterval(gap) <= b.pickupAt, "rides \(a.id) and \(b.id) on van \(van) are too close")
            }
        }
        await f.db.close()
    }

    @Test func concurrentBookingsAcrossMidnightNeverOverlapOrBreakDeadhead() async throws {
        // One van; 40 riders asking for times from 23:00 to 01:00: a writer at 23:50 and one at
        // 00:10 change one route, and must lock a van-day in common (not one each side of midnight).
        let f = try await BookingFixture(vans: [("Van 1", 8, 1)])
        let outcomes = try await withThrowingTaskGroup(of: BookingOutcome.self) { group in
            for rider in 0..<40 {
                group.addTask { try await f.booking.book(f.request(rider, at: f.monday(23, (rider * 7) % 120)), now: f.now) }
            }
            return try await group.reduce(into: [BookingOutcome]()) { $0.append($1) }
        }
        let rides = outcomes.compactMap { if case .booked(let ride) = $0 { ride } else { nil } }.sorted { $0.pickupAt < $1.pickupAt }
        #expect(rides.count >= 4)
        #expect(rides.contains { $0.pickupAt < f.monday(24) } && rides.contains { $0.pickupAt >= f.monday(24) })
        let estimator = TripEstimator()
        for (a, b) in zip(rides, rides.dropFirst()) {
            let gap = estimator.deadhead(from: a.dropoff.coordinate, to: b.pickup.coordinate)
            #expect(a.estimatedDropoffAt.addingTimeInterval(gap) <= b.pickupAt, "rides at \(a.pickupAt) and \(b.pickupAt) are too close")
        }
        await f.db.close()
    }

    @Test func aWriterLocksEveryLocalDateWithinTwoHoursOfItsChange() throws {
        let f = (
            zone: TimeZone(identifier: "America/New_York")!,
            monday: { (h: Int, m: Int) in Date(timeIntervalSince1970: 1_795_410_000 + Double(h * 3600 + m * 60)) }
        )
        func days(_ from: Date, _ to: Date) -> [String] {
            VanDayRoutes.vanDays(vanID: 7, changes: DateInterval(start: from, end: to), timeZone: f.zone).map { "\($0.vanID) \($0.day)" }
        }
        #expect(days(f.monday(12, 0), f.monday(12, 40)) == ["7 2026-11-23"])
        #expect(days(f.monday(22, 30), f.monday(22, 50)) == ["7 2026-11-23", "7 2026-11-24"])
        #expect(days(f.monday(1, 0), f.monday(1, 30)) == ["7 2026-11-22", "7 2026-11-23"])
        #expect(days(f.monday(21, 0), f.monday(21, 30)) == ["7 2026-11-23"])
    }

    @Test func theDatabaseRefusesAnOverloadedOrOutOfWindowRouteWrittenWithPlainSQL() async throws {
        // Two seats: two riders may overlap, a third may not, whoever writes the rows.
        let f = try await BookingFixture(vans: [("Van 1", 2, 0)], oneRiderAtATime: false)
        guard case .booked(let ride) = try await f.booking.book(f.request(at: f.monday(10)), now: f.now) else {
            Issue.record("booking failed"); return
        }
        func insert(_ pickup: Date, _ dropoff: Date, window: (Date, Date)? = nil, companions: Int = 0) async throws {
            try await f.db.pool.withConnection { conn in
                try conn.execute(
                    """
                    INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at,
                                       van_id, companions, window_start, window_end)
                    VALUES (\(UUID()), 'rider1', 'scheduled', 'here', 'there', now(), \(pickup), \(dropoff), \(ride.vanID), \(companions),
                            \(window?.0), \(window?.1))
                    """)
            }
        }
        // One more rider overlapping: two seats, fine (the window defaults to 15 minutes from the pickup).
        try await insert(f.monday(10, 1), f.monday(10, 20))
        // One with a companion on top: three and four aboard, refused at commit.
        let overload = try await #require(throws: PGError.self) { try await insert(f.monday(10, 2), f.monday(10, 10), companions: 1) }
        #expect(overload.sqlState == .checkViolation && overload.message.contains("seats"), "\(overload)")
        // A planned pickup outside its own promised window, on another hour: refused.
        let late = try await #require(throws: PGError.self) {
            try await insert(f.monday(12, 30), f.monday(12, 40), window: (f.monday(12), f.monday(12, 15)))
        }
        #expect(late.sqlState == .checkViolation && late.message.contains("outside its promised window"), "\(late)")
        // Moving a booked ride's planned pickup out of its window by hand: refused too.
        let moved = try await #require(throws: PGError.self) {
            try await f.db.pool.withConnection {
                try $0.execute(
                    "UPDATE rides SET pickup_at = pickup_at + interval '1 hour', estimated_dropoff_at = estimated_dropoff_at + interval '1 hour' WHERE id = \(ride.id)"
                )
            }
        }
        #expect(moved.sqlState == .checkViolation)
        // Nothing refused was written; a cancelled ride no longer holds its seat.
        #expect(try await f.count() == 2)
        try await f.db.pool.withConnection { try $0.execute("UPDATE rides SET status = 'cancelled' WHERE id = \(ride.id)") }
        try await insert(f.monday(10, 2), f.monday(10, 10))
        #expect(try await f.count() == 3)
        await f.db.close()
    }

    /// The route check reads a van's rides from 12 hours before the ride checked (sql/0026), so
    /// the database refuses a ride longer than that, and a long ride still aboard still counts.
    @Test func theRouteCheckCountsARideAboardForHoursAndRefusesOneLongerThanTwelve() async throws {
        let f = try await BookingFixture(vans: [("Van 1", 1, 0)], oneRiderAtATime: false)
        let van = try await f.db.pool.withConnection { try $0.query("SELECT id FROM vans").first!.decode(Int64.self, at: 0) }
        func insert(_ pickup: Date, _ dropoff: Date) async throws {
            try await f.db.pool.withConnection { conn in
                try conn.execute(
                    """
                    INSERT INTO rides (id, net_id, kind, pickup_address, dropoff_address, requested_at, pickup_at, estimated_dropoff_at, van_id)
                    VALUES (\(UUID()), 'rider1', 'scheduled', 'here', 'there', now(), \(pickup), \(dropoff), \(van))
                    """)
            }
        }
        let tooLong = try await #require(throws: PGError.self) { try await insert(f.monday(6), f.monday(18, 1)) }
        #expect(tooLong.sqlState == .checkViolation && tooLong.message.contains("rides_longest_ride"), "\(tooLong)")
        // Aboard from 6:00 to 17:59 on a one-seat van: a ride at 17:30 would make two.
        try await insert(f.monday(6), f.monday(17, 59))
        let overload = try await #require(throws: PGError.self) { try await insert(f.monday(17, 30), f.monday(17, 45)) }
        #expect(overload.sqlState == .checkViolation && overload.message.contains("seats"), "\(overload)")
        try await insert(f.monday(18), f.monday(18, 15))
        #expect(try await f.count() == 2)
        await f.db.close()
    }

    @Test func aBookingsWritesKeepToTheIndexesAndLeaveThePlannerAsItWas() async throws {
        let f = try await BookingFixture(vans: [("Van 1", 8, 0)], oneRiderAtATime: false)
        // The route check keeps to the indexes for every writer (sql/0027); a later CREATE OR
        // REPLACE of it without the SET clauses would drop them silently.
        let config = try await f.db.pool.withConnection {
            try $0.query("SELECT array_to_string(proconfig, ',') FROM pg_proc WHERE proname = 'vand_check_route'").first!.decode(String.self, at: 0)
        }
        #expect(config.contains("enable_seqscan=off") && config.contains("enable_bitmapscan=off"), "\(config)")
        // A booking's savepoint turns them off for its own writes and on again when it is
        // released: the rest of the transaction (a series' next occurrence) plans as usual.
        let zone = f.zone, now = f.now, ride = f.request(0, at: f.monday(10))
        let after = try await f.db.pool.withTransaction { conn -> [String] in
            guard case .booked = try BookingService.bookAll([ride], now: now, timeZone: zone, willCallWait: 1_800, conn).first else {
                return ["not booked"]
            }
            return try ["enable_seqscan", "enable_bitmapscan"].map {
                try conn.query("SELECT current_setting(\($0))").first!.decode(String.self, at: 0)
            }
        }
        #expect(after == ["on", "on"])
        await f.db.close()
    }

    @Test func aWheelchairRideNeverTakesAVanWithoutAPosition() async throws {
        let f = try await BookingFixture(vans: [("Lift van", 8, 1), ("Plain van", 8, 0)])
        guard case .booked(let first) = try await f.booking.book(f.request(0, at: f.monday(11), wheelchair: true), now: f.now) else {
            Issue.record("first failed"); return
        }
        let lift = try await f.db.pool.withConnection { try $0.query("SELECT id FROM vans WHERE name = 'Lift van'").first!.decode(Int64.self, at: 0) }
        #expect(first.vanID == lift)
        // The plain van is free at 11:00, but it has no wheelchair position.
        let outcome = try await f.booking.book(f.request(1, at: f.monday(11), wheelchair: true), now: f.now)
        guard case .refused(let feasibility, _) = outcome else { Issue.record("expected a refusal"); return }
        #expect(feasibility.reason == .occupied)
        #expect(feasibility.suggestions.allSatisfy { $0.vanID == lift })
        // An ambulatory rider at the same time gets the plain van.
        guard case .booked(let walker) = try await f.booking.book(f.request(2, at: f.monday(11)), now: f.now) else {
            Issue.record("walker failed"); return
        }
        #expect(walker.vanID != lift)
        await f.db.close()
    }

    @Test func outsideHoursAndClosuresAreRefusedWithTheReason() async throws {
        let f = try await BookingFixture()
        let calendar = ServiceCalendarStore(pool: f.db.pool, timeZone: f.zone)
        // Saturday 2026-11-28 at noon: the weekend van runs 6 PM to 7:30 AM.
        let saturdayNoon = f.monday(12).addingTimeInterval(5 * 86_400)
        let weekend = try await f.booking.book(f.request(at: saturdayNoon), now: f.now)
        guard case .refused(let closedHours, _) = weekend else { Issue.record("expected a refusal"); return }
        #expect(closedHours.reason == .outsideServiceHours)
        try await calendar.addClosure(try LocalDate("2026-11-26"), reason: "Thanksgiving", actor: "test")
        let thursday = try await f.booking.book(f.request(at: f.monday(10).addingTimeInterval(3 * 86_400)), now: f.now)
        guard case .refused(let holiday, _) = thursday else { Issue.record("expected a refusal"); return }
        #expect(holiday.reason == .closed(try LocalDate("2026-11-26")))
        #expect(try await f.count() == 0)
        let audit = try await f.count("SELECT count(*) FROM audit_log WHERE action = 'closure.add' AND actor = 'test'")
        #expect(audit == 1)
        await f.db.close()
    }

    @Test func availabilityShrinksWhenTheOnlyVanIsBooked() async throws {
        let f = try await BookingFixture()
        let monday = try LocalDate("2026-11-23")
        let before = try await f.booking.availability(on: monday, wheelchair: false)
        #expect(before.count == 1)  // open all Monday, nothing booked
        guard case .booked = try await f.booking.book(f.request(at: f.monday(13)), now: f.now) else { Issue.record("booking failed"); return }
        let after = try await f.booking.availability(on: monday, wheelchair: false)
        #expect(after.count == 2)
        #expect(!after.contains { $0.contains(f.monday(13)) })
        await f.db.close()
    }
}
