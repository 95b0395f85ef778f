import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres
import VanScheduler

@Suite("Vans, places, hours and closures")
struct FleetStoreTests {
    @Test func vansAddUpdateRetireAndAudit() async throws {
        let db = try await TestCluster.makeDatabase()
        let vans = VanStore(pool: db.pool)
        _ = try await vans.add(name: "Van 1", seats: 8, wheelchairPositions: 2, actor: "dana")
        await #expect(throws: FleetError.duplicateName("Van 1")) {
            try await vans.add(name: " Van 1 ", seats: 4, wheelchairPositions: 0, actor: "dana")
        }
        await #expect(throws: ValidationError.self) { try await vans.add(name: "Van 2", seats: 0, wheelchairPositions: 0, actor: "dana") }
        let updated = try await vans.update(name: "Van 1", newName: nil, seats: 10, wheelchairPositions: nil, actor: "dana")
        #expect(updated.seats == 10 && updated.wheelchairPositions == 2)
        await #expect(throws: FleetError.unknownVan("Van 9")) { try await vans.retire(name: "Van 9", now: Date(), actor: "dana") }
        let moved = try await vans.retire(name: "Van 1", now: Date(), actor: "dana")
        #expect(moved.isEmpty)
        #expect(try await vans.list().map(\.active) == [false])
        #expect(try await vans.list(includeRetired: false).isEmpty)
        let actions = try await db.pool.withConnection { conn in
            try conn.query("SELECT action FROM audit_log WHERE actor = 'dana' ORDER BY id").map { try $0.decode(String.self, at: 0) }
        }
        #expect(actions == ["van.add", "van.update", "van.retire"])
        await db.close()
    }

    @Test func retiringAVanListsItsFutureRides() async throws {
        let f = try await BookingFixture()
        guard case .booked(let ride) = try await f.booking.book(f.request(at: f.monday(10)), now: f.now) else {
            Issue.record("booking failed"); return
        }
        let moved = try await VanStore(pool: f.db.pool).retire(name: "Van 1", now: f.now, actor: "dana")
        #expect(moved == [ride.ref])
        // A retired van takes no new rides.
        let outcome = try await f.booking.book(f.request(1, at: f.monday(15)), now: f.now)
        guard case .refused(let feasibility, _) = outcome else { Issue.record("expected a refusal"); return }
        #expect(feasibility.reason == .noActiveVan)
        await f.db.close()
    }

    @Test func placeImportIsAllOrNothingWithLineNumbersAndIdempotent() async throws {
        let db = try await TestCluster.makeDatabase()
        let places = PlaceStore(pool: db.pool)
        let bad = """
            name,lat,lon,aliases
            Sterling Chemistry Lab,41.31633,-72.92241,SCL
            Nowhere,91,-72.9,
            ,41.3,-72.9,
            "Bass Library",41.31047,-72.92817,Bass
            Bass Library,41.31047,-72.92817,
            """
        let error = try await #require(throws: FleetError.self) { try await places.importCSV(bad, actor: "dana") }
        guard case .badImport(let problems) = error else { Issue.record("wrong error"); return }
        #expect(problems.count == 3)
        #expect(problems[0].hasPrefix("line 3:") && problems[0].contains("lat"))
        #expect(problems[1].hasPrefix("line 4:") && problems[1].contains("name"))
        #expect(problems[2].hasPrefix("line 6:") && problems[2].contains("line 5"))
        #expect(try await places.list().isEmpty)

        let good = """
            name,lat,lon,aliases
            Sterling Chemistry Lab,41.31633,-72.92241,SCL
            "Davenport College, Yale",41.30917,-72.93139,Davenport;D'Port
            """
        #expect(try await places.importCSV(good, actor: "dana") == PlaceStore.ImportSummary(added: 2, updated: 0, unchanged: 0))
        #expect(try await places.importCSV(good, actor: "dana") == PlaceStore.ImportSummary(added: 0, updated: 0, unchanged: 2))
        let moved = good.replacingOccurrences(of: "41.31633", with: "41.31640")
        #expect(try await places.importCSV(moved, actor: "dana") == PlaceStore.ImportSummary(added: 0, updated: 1, unchanged: 1))
        let davenport = try await places.search("d'port")
        #expect(davenport.map(\.name) == ["Davenport College, Yale"])
        #expect(davenport.first?.aliases == ["Davenport", "D'Port"])
        await db.close()
    }

    @Test func nearestPlacesAreSortedByDistance() async throws {
        let db = try await TestCluster.makeDatabase()
        #expect(try await DemoData.load(into: db.pool, actor: "test") == .loaded(vans: 3, places: 12))
        #expect(try await DemoData.load(into: db.pool, actor: "test") == .skippedNotEmpty)
        // A point a few meters from the Sterling Chemistry Lab door.
        let here = try Coordinate(latitude: 41.31640, longitude: -72.92245)
        let nearest = try await PlaceStore(pool: db.pool).nearest(to: here, limit: 3)
        #expect(nearest.first?.0.name == "Sterling Chemistry Lab")
        #expect(nearest.first!.1 < 20)
        #expect(nearest.map(\.1) == nearest.map(\.1).sorted())
        #expect(try await PlaceStore(pool: db.pool).nearest(to: here, within: 150).count == 1)
        await db.close()
    }

    @Test func hoursDefaultToThePaperAndCanBeReplaced() async throws {
        let db = try await TestCluster.makeDatabase()
        let zone = TimeZone(identifier: "America/New_York")!
        let calendar = ServiceCalendarStore(pool: db.pool, timeZone: zone)
        let stored = try await calendar.hours()
        #expect(Set(stored.windows) == Set(ServiceHours.wheelsDefault(timeZone: zone).windows))
        let weekdaysOnly = try ServiceWindow.parse(spec: "Mon-Fri 07:00-19:00")
        try await calendar.setHours(weekdaysOnly, actor: "dana")
        #expect(try await calendar.hours().windows == weekdaysOnly)
        var settings = SchedulerSettings()
        settings.estimator.averageSpeedKmh = 15
        settings.searchWindowMinutes = 60
        try await calendar.setSettings(settings, actor: "dana")
        #expect(try await calendar.settings() == settings)
        let scheduler = try await calendar.scheduler(around: Date(timeIntervalSince1970: 1_795_410_000))
        #expect(scheduler.searchWindow == 3_600)
        #expect(scheduler.estimator.averageSpeedKmh == 15)
        await db.close()
    }
}
