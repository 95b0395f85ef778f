import Foundation
import Testing
import VanDomain
import VanScheduler
import VanTestSupport
@testable import VanServices
import VanPostgres

/// One truth of the road (issue 31): the same stop's lateness reads the same on every surface,
/// the SQL figure is the Swift one, and a late alert is state that follows the ETA.
@Suite("One lateness: every surface, the SQL figure, alerts as state")
struct OneLatenessTests {
    /// What each surface says of van 1's next stop (Ann's pickup), in whole minutes late.
    struct Readings: Equatable, CustomStringConvertible {
        var rider: Int?
        var board: Int?
        var map: Int?
        var vansStatus: Int?
        var alert: Int?
        var alertEvent: Int?

        var description: String {
            "rider \(rider.map(String.init) ?? "-"), board \(board.map(String.init) ?? "-"), map \(map.map(String.init) ?? "-"), "
                + "vans status \(vansStatus.map(String.init) ?? "-"), alert \(alert.map(String.init) ?? "-"), event \(alertEvent.map(String.init) ?? "-")"
        }
    }

    /// Works the van out as the feed does (alerts synced), then reads every surface at the same moment.
    static func read(_ f: ETAFixture, ride: UUID) async throws -> Readings {
        try await f.feed().refresh(van: 1)
        let now = f.now
        var readings = Readings()
        readings.rider = try await f.service.van(1, now: now)?.rider(ride, lead: EventSettings().etaLead)?.lateMinutes
        let board = try await DayBoard.load(
            pool: f.db.pool, day: LocalDate(containing: now, in: f.events.zone), timeZone: f.events.zone,
            now: now, eta: f.service, van: 1)
        readings.board = board.vans.first { $0.id == 1 }?.stops.first { $0.rideID == ride && $0.kind == .pickup }?.lateness?.minutes
        let road = Road(pool: f.db.pool, clock: f.clock, timeZone: f.events.zone)
        let map = try await FleetMap.load(road: road, eta: f.service, pool: f.db.pool, timeZone: f.events.zone, now: now)
        readings.map = map.vans.first { $0.id == 1 }?.stops.first?.minutesLate
        let statuses = try await VanStatusBoard.load(pool: f.db.pool, eta: f.service, timeZone: f.events.zone, now: now, stale: 120)
        let vanName = try await f.db.pool.withConnection { try $0.query("SELECT name FROM vans WHERE id = 1").first!.decode(String.self, at: 0) }
        readings.vansStatus = statuses.first { $0.van == vanName }?.nextStop?.minutesLate
        let alerts = try await DispatchAlerts(pool: f.db.pool, timeZone: f.events.zone).snapshot(now: now, pendingAfter: 3_600)
        readings.alert = alerts.late.first { $0.listing.ride.id == ride }?.lateness.minutes
        readings.alertEvent = try await f.db.pool.withConnection { conn in
            try conn.query(
                """
                SELECT (payload -> 'late' ->> 'late_minutes')::int FROM ride_events WHERE ride_id = \(ride) AND kind = 'late' ORDER BY id DESC LIMIT 1
                """
            ).first?.decode(Int.self, at: 0)
        }
        return readings
    }

    /// A van driven late reads the same minutes on the rider's ETA, the day board, the map,
    /// `vans status`, the console's alert and the alert's event; 15 s past the window reads on time
    /// on all of them, and raises nothing.
    @Test func everySurfaceReadsTheSameStopTheSameWay() async throws {
        let f = try await ETAFixture()
        try await f.shift()
        // Promised a pickup from 07:05 to 07:20. The model drives d metres in d × 1.3 ÷ 20 km/h.
        let ride = try await f.ride(pickupIn: 5)
        // 5,192.3 m: 20 min 15 s away, 15 s past the window's end.
        try await f.position(f.north(of: f.scl, meters: 1_215.0 / 3_600 * 20_000 / 1.3))
        let justPast = try await Self.read(f, ride: ride)
        #expect(justPast == Readings(rider: 0, board: 0, map: 0, vansStatus: 0, alert: nil, alertEvent: nil), "\(justPast)")
        #expect(try await f.events.count("SELECT count(*) FROM ride_alerts") == 0, "15 s past the window is not late")

        // 10 km: 39 min away, 07:39, 19 whole minutes past 07:20.
        try await f.position(f.north(of: f.scl, meters: 10_000))
        let late = try await Self.read(f, ride: ride)
        #expect(late == Readings(rider: 19, board: 19, map: 19, vansStatus: 19, alert: 19, alertEvent: 19), "\(late)")
        await f.db.close()
    }

    /// The SQL figure (`vand_late_minutes`, in the alert's event) and ``Lateness`` agree on every
    /// case of the table, both sides of each minute.
    @Test func theSQLFigureIsLatenessOnATableOfCases() async throws {
        let f = try await ETAFixture()
        let end = f.now
        let offsets: [TimeInterval] = [-3_600, -61, -1, 0, 0.000_001, 0.5, 15, 59, 59.999, 60, 60.001, 61, 119.5, 120, 599, 3_599.9, 3_600, 86_400]
        for offset in offsets {
            let at = end.addingTimeInterval(offset)
            let sql = try await f.db.pool.withConnection { conn in
                try conn.query("SELECT vand_late_minutes(\(at), \(end))").first!.decode(Int.self, at: 0)
            }
            #expect(sql == Lateness(at: at, windowEnd: end).minutes, "\(offset) s past the window")
        }
        #expect(Lateness(at: end.addingTimeInterval(59.999), windowEnd: end).isLate == false)
        #expect(Lateness(at: end.addingTimeInterval(60), windowEnd: end).isLate)
        await f.db.close()
    }

    /// Raised once; updated (no new event) as the ETA's whole minutes move; left alone while they
    /// stay; cleared when the van recovers; raised again (a new event) when late again; cleared
    /// when the ride moves to another van, and when the rider boards.
    @Test func aLateAlertFollowsTheETA() async throws {
        let f = try await ETAFixture()
        let shift = try await f.shift()
        let ride = try await f.ride(pickupIn: 5)
        let feed = f.feed()
        func alert() async throws -> (eta: Date, cleared: String?)? {
            try await f.db.pool.withConnection { conn in
                try conn.query("SELECT eta, cleared_reason FROM ride_alerts WHERE ride_id = \(ride)").first.map {
                    (try $0.decode(Date.self, at: 0), try $0.decode(String?.self, at: 1))
                }
            }
        }
        func lateEvents() async throws -> Int { try await f.events.kinds(ride).filter { $0 == "late" }.count }
        func open() async throws -> Int {
            try await DispatchAlerts(pool: f.db.pool, timeZone: f.events.zone).snapshot(now: f.now, pendingAfter: 3_600).late.count
        }

        try await f.position(f.north(of: f.scl, meters: 10_000))  // 39 min: 07:39
        try await feed.refresh(van: 1)
        #expect(try await alert()?.eta == f.now.addingTimeInterval(2_340))
        let (events, opened) = (try await lateEvents(), try await open())
        #expect(events == 1 && opened == 1)

        try await f.position(f.north(of: f.scl, meters: 7_000))  // 27.3 min: 07:27:18, 7 min late
        try await feed.refresh(van: 1)
        #expect(try await alert()?.eta == f.now.addingTimeInterval(1_638))
        #expect(try await alert()?.cleared == nil)
        #expect(try await lateEvents() == 1, "an update tells the console, not the rider")

        try await f.position(f.north(of: f.scl, meters: 7_100))  // 27.7 min: still 7 whole minutes
        try await feed.refresh(van: 1)
        #expect(try await alert()?.eta == f.now.addingTimeInterval(1_638), "the same whole minutes write nothing")

        try await f.position(f.north(of: f.scl, meters: 2_000))  // 7.8 min: on time
        try await feed.refresh(van: 1)
        #expect(try await alert()?.cleared == "recovered")
        #expect(try await open() == 0)

        try await f.position(f.north(of: f.scl, meters: 10_000))
        try await feed.refresh(van: 1)
        #expect(try await alert()?.cleared == nil)
        #expect(try await lateEvents() == 2, "late again: she hears it again")

        try await f.events.sql("UPDATE rides SET van_id = 2 WHERE id = \(ride)")
        try await feed.refresh(van: 1)
        #expect(try await alert()?.cleared == "moved")

        try await f.events.sql("UPDATE rides SET van_id = 1 WHERE id = \(ride)")
        try await feed.refresh(van: 1)
        #expect(try await alert()?.cleared == nil)
        try await f.tap(shift, ride: ride, "pickup", "arrived")
        try await f.tap(shift, ride: ride, "pickup", "boarded")
        try await feed.refresh(van: 1)
        #expect(try await alert()?.cleared == "served")
        #expect(try await open() == 0)
        await f.db.close()
    }
}
