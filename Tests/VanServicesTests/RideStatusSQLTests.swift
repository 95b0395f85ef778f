import Foundation
import Testing
import VanDomain
import VanPostgres
import VanTestSupport
@testable import VanServices

@Suite("Ride status rules agree between Swift and SQL")
struct RideStatusSQLTests {
    @Test func holdsVanIsTheSameRuleInBoth() async throws {
        let db = try await TestCluster.makeDatabase()
        for status in RideStatus.allCases {
            let inSQL = try await db.pool.withConnection { conn in
                try conn.query("SELECT ride_holds_van(\(status.rawValue))").first!.decode(Bool.self, at: 0)
            }
            #expect(inSQL == status.holdsVan, "ride_holds_van('\(status.rawValue)') disagrees with RideStatus.holdsVan")
        }
        await db.close()
    }

    /// The 12-hour longest ride stands in Swift (`VanDayRoutes.longestRide`, how far back a read
    /// of a span looks) and in SQL (the `rides_longest_ride` constraint, and how far back
    /// `vand_check_route` looks): the live definitions must all say the same.
    @Test func theLongestRideIsTheSameInSwiftAndInTheDatabase() async throws {
        let db = try await TestCluster.makeDatabase()
        let (constraint, check) = try await db.pool.withConnection { conn in
            (
                try conn.query("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'rides_longest_ride'").first!.decode(
                    String.self, at: 0),
                try conn.query("SELECT prosrc FROM pg_proc WHERE proname = 'vand_check_route'").first!.decode(String.self, at: 0)
            )
        }
        let hours = Int(VanDayRoutes.longestRide / 3_600)
        #expect(constraint.contains("'\(hours):00:00'::interval"), "\(constraint)")
        let intervals = check.matches(of: #/interval '(\d+) hours'/#).map { Int($0.1) }
        #expect(intervals == [hours], "\(intervals)")
        await db.close()
    }

    @Test func theSchedulersReadStillUsesItsPartialIndex() async throws {
        let db = try await TestCluster.makeDatabase()
        let plan = try await db.pool.withConnection { conn in
            try conn.execute(simple: "SET enable_seqscan = off")
            return try conn.query(
                """
                EXPLAIN SELECT id FROM rides WHERE ride_holds_van(status) AND van_id IS NOT NULL
                AND pickup_at BETWEEN now() AND now() + interval '1 hour'
                """
            ).map { try $0.decode(String.self, at: 0) }.joined(separator: "\n")
        }
        // The function is inlined, so the index's predicate is proved from the query's.
        #expect(plan.contains("rides_holding_van"), "plan: \(plan)")
        await db.close()
    }
}
