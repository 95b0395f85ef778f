import Foundation
import Testing
import VanPostgres
import VanServices

/// `vanadmin manifest` after the day: the run sheet still lists what the van did, for the
/// office's records (completed rides, a no-show's pickup), not only what it still holds.
@Suite("vanadmin manifest after the day")
struct VanAdminManifestTests {
    typealias T = RoadDay

    @Test func theDaysSheetKeepsCompletedRidesAndNoShows() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        let day = RoadDay(pool: db.pool)
        try await day.fleet()
        let done = try await day.ride("Van 1", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 5), dropoff: T.at(10, 25), status: "completed")
        let missed = try await day.ride("Van 1", window: (T.at(11, 0), T.at(11, 15)), pickup: T.at(11, 0), dropoff: T.at(11, 20), status: "no_show")
        let cancelled = try await day.ride(
            "Van 1", window: (T.at(12, 0), T.at(12, 15)), pickup: T.at(12, 0), dropoff: T.at(12, 20), status: "cancelled")
        let sheet = try await cli.run("manifest", "--van", "Van 1", "--date", "2026-11-16", environment: ["VAND_TIMEZONE": "America/New_York"])
        #expect(sheet.status == 0, "\(sheet.stderr)")
        #expect(sheet.stdout.contains("2 rides, 3 stops"), "\(sheet.stdout)")
        #expect(
            sheet.stdout.contains("PICK UP   \(done.ref)  Ann Lee (done)") && sheet.stdout.contains("DROP OFF  \(done.ref)  Ann Lee (done)"),
            "\(sheet.stdout)")
        #expect(
            sheet.stdout.contains("PICK UP   \(missed.ref)  Ann Lee (no-show)") && !sheet.stdout.contains("DROP OFF  \(missed.ref)"),
            "\(sheet.stdout)")
        #expect(!sheet.stdout.contains(cancelled.ref))
        await db.close()
        cli.cleanUp()
    }
}
