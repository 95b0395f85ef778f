import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// The routes of van-days as the scheduler reads them, and the one-writer-per-van-day rule:
/// a writer plans from a read, then locks the row of the van-day it writes (`FOR UPDATE`) and
/// checks its `version` is still the one it read; if another writer got there first it plans
/// again. Bookings on different vans never wait for each other.
enum VanDayRoutes {
    /// How far around a time the scheduler reads rides: a whole stretch of service either side
    /// of the suggestion window.
    static let reach: TimeInterval = 30 * 3_600

    /// What a writer read: the rides holding vans around `time`, and the versions of the van-days then.
    struct Snapshot {
        let rides: [BookedRide]
        let versions: [VanDay: Int64]
    }

    /// One van's service day.
    struct VanDay: Hashable {
        let vanID: Int64
        let day: LocalDate
    }

    /// Reads the versions first, then the rides: a write that lands in between bumps a version
    /// this snapshot has the old value of, so the writer re-plans (never the other way round).
    static func snapshot(_ conn: PGConnection, around time: Date, window: TimeInterval) throws -> Snapshot {
        let from = time.addingTimeInterval(-window - reach), to = time.addingTimeInterval(window + reach)
        var versions: [VanDay: Int64] = [:]
        for row in try conn.query("""
            SELECT van_id, to_char(day, 'YYYY-MM-DD'), version FROM van_days
            WHERE day BETWEEN \(from)::date - 1 AND \(to)::date + 1
            """) {
            versions[VanDay(vanID: try row.decode(at: 0), day: try LocalDate(try row.decode(String.self, at: 1)))] = try row.decode(at: 2)
        }
        return Snapshot(rides: try RideRecord.booked(conn, overlapping: DateInterval(start: from, end: to)), versions: versions)
    }

    /// Locks the van-day for writing; true when its route is still as `snapshot` read it. When it
    /// changed, the lock is given up again (a savepoint rolled back), so a writer that plans again
    /// and picks another van never holds two van-days out of order: no deadlocks between writers.
    static func lock(_ vanDay: VanDay, unchangedSince snapshot: Snapshot, _ conn: PGConnection) throws -> Bool {
        try conn.execute(simple: "SAVEPOINT van_day")
        try conn.execute("""
            INSERT INTO van_days (van_id, day) VALUES (\(vanDay.vanID), \(vanDay.day.description)::date) ON CONFLICT DO NOTHING
            """)
        let version: Int64 = try conn.query("""
            SELECT version FROM van_days WHERE van_id = \(vanDay.vanID) AND day = \(vanDay.day.description)::date FOR UPDATE
            """).first!.decode(at: 0)
        guard version == (snapshot.versions[vanDay] ?? 0) else {
            try conn.execute(simple: "ROLLBACK TO SAVEPOINT van_day")
            return false
        }
        try conn.execute(simple: "RELEASE SAVEPOINT van_day")
        return true
    }

    /// Writes the other rides' new planned times and bumps the van-day's version.
    static func commit(_ vanDay: VanDay, replanned: [UUID: PlannedStops], now: Date, _ conn: PGConnection) throws {
        for (id, stops) in replanned.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            try conn.execute("""
                UPDATE rides SET pickup_at = \(stops.pickupAt), estimated_dropoff_at = \(stops.dropoffAt), updated_at = \(now)
                WHERE id = \(id)
                """)
        }
        try conn.execute("UPDATE van_days SET version = version + 1 WHERE van_id = \(vanDay.vanID) AND day = \(vanDay.day.description)::date")
    }

    /// Checks the promises of everything written so far (the deferred route trigger) now, inside
    /// the caller's savepoint, so a refusal can undo one occurrence and keep the rest.
    static func checkNow(_ conn: PGConnection) throws {
        try conn.execute(simple: "SET CONSTRAINTS rides_route_check IMMEDIATE")
        try conn.execute(simple: "SET CONSTRAINTS rides_route_check DEFERRED")
    }
}
