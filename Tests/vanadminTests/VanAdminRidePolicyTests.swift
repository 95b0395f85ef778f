import Foundation
import Testing
import VanPostgres
import VanServices

/// `vanadmin rides cancel` and `vanadmin rides no-show` ask the one ride policy (``RidePolicy``)
/// the console asks: a rider the driver tapped on board is neither cancelled nor a no-show.
/// One line, a non-zero exit, and the ride as it was.
@Suite("vanadmin and the ride policy")
struct VanAdminRidePolicyTests {
    typealias T = RoadDay

    @Test func aRiderOnBoardIsNeitherCancelledNorANoShowUntilTheTapIsUndone() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        let day = RoadDay(pool: db.pool)
        try await day.fleet()
        try await day.shift("dee", "Van 1", from: T.at(6, 0))
        let ride = try await day.ride("Van 1", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 5), dropoff: T.at(10, 25), status: "approved")
        try await day.tap(ride.id, "pickup", "arrived", at: T.at(10, 4), by: "dee")
        try await day.tap(ride.id, "pickup", "boarded", at: T.at(10, 6), by: "dee")
        func state() async throws -> (String, Int) {
            try await db.pool.withConnection { conn in
                (
                    try conn.query("SELECT status FROM rides WHERE id = \(ride.id)").first!.decode(String.self, at: 0),
                    try conn.query("SELECT count(*) FROM audit_log WHERE action IN ('ride.cancel', 'ride.no_show')").first!.decode(Int.self, at: 0)
                )
            }
        }

        let cancel = try await cli.run("rides", "cancel", ride.ref, "--reason", "Van 1 broke down")
        #expect(cancel.status != 0)
        #expect(cancel.stderr.contains("the rider is on board: a ride under way is not cancelled"), "\(cancel.stderr)")
        #expect(cancel.stderr.split(separator: "\n").count == 1, "one line: \(cancel.stderr)")
        let noShow = try await cli.run("rides", "no-show", ride.ref)
        #expect(noShow.status != 0)
        #expect(noShow.stderr.contains("a rider who boarded is not a no-show"), "\(noShow.stderr)")
        let unchanged = try await state()
        #expect(unchanged.0 == "approved" && unchanged.1 == 0)

        // The driver undoes the tap (she was never on board): the van is only at the curb, and the
        // office may record the no-show.
        try await db.pool.withConnection { conn in
            try conn.execute("UPDATE stop_taps SET undone_at = \(T.at(10, 7)) WHERE ride_id = \(ride.id) AND action = 'boarded'")
        }
        let again = try await cli.run("rides", "no-show", ride.ref)
        #expect(again.status == 0, "\(again.stderr)")
        let marked = try await state()
        #expect(marked.0 == "no_show" && marked.1 == 1)
        await db.close()
        cli.cleanUp()
    }
}
