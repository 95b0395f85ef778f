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

    @Test func theSchedulersReadStillUsesItsPartialIndex() async throws {
        let db = try await TestCluster.makeDatabase()
        let plan = try await db.pool.withConnection { conn in
            try conn.execute(simple: "SET enable_seqscan = off")
            return try conn.query("""
                EXPLAIN SELECT id FROM rides WHERE ride_holds_van(status) AND van_id IS NOT NULL
                AND pickup_at BETWEEN now() AND now() + interval '1 hour'
                """).map { try $0.decode(String.self, at: 0) }.joined(separator: "\n")
        }
        // The function is inlined, so the index's predicate is proved from the query's.
        #expect(plan.contains("rides_holding_van"), "plan: \(plan)")
        await db.close()
    }
}
