import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres
import VanScheduler

/// `vanadmin rides book`: a dispatcher books for a rider who phones, through the rider's own
/// booking path (the real binary against a real database).
@Suite("vanadmin rides book (real binary, real database)", .serialized)
struct RidesBookCommandTests {
    func whitelist(_ w: DispatchWorld, _ riders: String...) async throws {
        try await w.pool.withConnection { conn in
            for rider in riders { try conn.execute("INSERT INTO whitelist (net_id, added_by) VALUES (\(rider), 'test')") }
        }
    }

    @Test func aDispatcherBooksForARiderAndTheAuditAndTheEventsNameHer() async throws {
        let w = try await DispatchWorld()
        try await whitelist(w, "ann1")
        let result = try w.vanadmin(["rides", "book", "ann1", "--from", "scl", "--to", "Davenport", "--at", "\(w.dayText) 15:00", "--as", "dana"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("booked "))
        #expect(result.stdout.contains("ann1 Sterling Chemistry Lab → Davenport College (pending, Van 1)"))
        let id = try await w.value("SELECT id FROM rides WHERE net_id = 'ann1'", as: UUID.self)
        #expect(try await w.value("SELECT pickup_at FROM rides WHERE id = \(id)", as: Date.self) == w.at(15))
        #expect(
            try await w.value(
                "SELECT count(*) FROM audit_log WHERE actor = 'dana' AND action = 'book' AND subject = \(id.uuidString.lowercased())", as: Int.self)
                == 1)
        #expect(try await w.value("SELECT payload->>'actor' FROM ride_events WHERE ride_id = \(id) AND kind = 'created'", as: String.self) == "dana")
        // The rider sees it as hers.
        let rides = try await RiderRides(pool: w.pool).list(try NetID("ann1"), scope: .upcoming, now: Date(), limit: 10)
        #expect(rides.rides.map(\.id) == [id])
    }

    /// The office's booking follows vand's settings, read by the same reader: with
    /// `VAND_AUTO_APPROVE=true` the ride is approved at once, as a rider's own would be; a
    /// setting that is not valid is one line naming it, and nothing is booked.
    @Test func thePhoneBookingFollowsVandsSettings() async throws {
        let w = try await DispatchWorld()
        try await whitelist(w, "ann1")
        let approved = try w.vanadmin(
            ["rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 15:00", "--as", "dana"],
            environment: ["VAND_AUTO_APPROVE": "true"])
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(approved.stdout.contains("(approved, Van 1)"), "\(approved.stdout)")
        #expect(try await w.value("SELECT status FROM rides WHERE net_id = 'ann1'", as: String.self) == "approved")
        let wrong = try w.vanadmin(
            ["rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 17:00"],
            environment: ["VAND_AUTO_APPROVE": "sometimes"])
        #expect(wrong.status != 0 && wrong.stderr.contains("VAND_AUTO_APPROVE") && wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
        #expect(try await w.value("SELECT count(*) FROM rides", as: Int.self) == 1)
    }

    /// Every `vanadmin` command that reaches the services reads the whole settings as `vand`
    /// does (VandSettings): a bad road setting stops a dispatcher's decision with one line, and
    /// the decision is not made.
    @Test func everyCommandReadsTheSettingsVandReads() async throws {
        let w = try await DispatchWorld()
        let id = try await w.book("ann1", w.at(15))
        let result = try w.vanadmin(["rides", "approve", id.uuidString, "--as", "dana"], environment: ["VAND_NO_SHOW_WAIT": "soon"])
        #expect(
            result.status != 0 && result.stderr.contains("VAND_NO_SHOW_WAIT") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try await w.value("SELECT status FROM rides WHERE id = \(id)", as: String.self) == "pending")
    }

    @Test func aTakenTimeBooksNothingAndOffersTheRidersOwnSuggestions() async throws {
        let w = try await DispatchWorld()
        try await whitelist(w, "ann1", "bob2")
        _ = try await w.book("ann1", w.at(15))
        let before = try await w.value("SELECT count(*) FROM rides", as: Int.self)
        let result = try w.vanadmin(["rides", "book", "bob2", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 15:02", "--as", "dana"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("not booked: The van is occupied at 3:02 PM"))
        #expect(result.stdout.contains("times that work: "))
        #expect(result.stderr.contains("nothing booked for bob2") && result.stderr.split(separator: "\n").count == 1)
        #expect(try await w.value("SELECT count(*) FROM rides", as: Int.self) == before)
        #expect(try await w.value("SELECT count(*) FROM audit_log WHERE action = 'book'", as: Int.self) == 0)

        // The rider asking for herself gets the same refusal and the same times.
        let json = try w.vanadmin(["rides", "book", "bob2", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 15:02", "--json"])
        let answers = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let places = try await PlaceStore(pool: w.pool).list()
        let own = try w.booking.check(
            BookingRequest(
                pickupAt: ServiceTime(timeZone: w.zone).format(w.at(15, 2)), pickup: .init(place: "SCL"),
                dropoff: .init(place: "Davenport")),
            for: try NetID("bob2"), places: places, now: Date())
        let outcomes = try await w.booking.bookSeries(own.rides, now: Date())
        guard case .refused(let feasibility, let sentence) = outcomes[0] else { throw TestFailure("the rider's own request was booked") }
        #expect(answers?.first?["reason"] as? String == feasibility.refusalCode)
        #expect(answers?.first?["refused"] as? String == sentence)
        #expect(answers?.first?["suggestions"] as? [String] == feasibility.suggestions.map { ServiceTime(timeZone: w.zone).format($0.pickupAt) })
    }

    @Test func refusalsAreOneLineAndBookNothing() async throws {
        let w = try await DispatchWorld()
        try await whitelist(w, "ann1")
        let notListed = try w.vanadmin(["rides", "book", "cat3", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 11:00"])
        #expect(notListed.status == 1)
        #expect(notListed.stderr.contains("cat3 may not be booked for: Not on the whitelist"))
        #expect(notListed.stderr.split(separator: "\n").count == 1)
        // A disabled account is refused as the console refuses it: she could not see the ride.
        try await w.pool.withConnection { try $0.execute("UPDATE riders SET disabled = true WHERE net_id = 'ann1'") }
        let disabled = try w.vanadmin(["rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 11:00"])
        #expect(disabled.status == 1 && disabled.stderr.contains("ann1 may not be booked for: Her account is disabled"), "\(disabled.stderr)")
        try await w.pool.withConnection { try $0.execute("UPDATE riders SET disabled = false WHERE net_id = 'ann1'") }
        let stranger = try w.vanadmin(["rides", "book", "zed9", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 11:00"])
        #expect(stranger.status == 1 && stranger.stderr.contains("zed9 is not a rider"), "\(stranger.stderr)")
        let unknownPlace = try w.vanadmin(["rides", "book", "ann1", "--from", "Nowhere Hall", "--to", "Davenport", "--at", "\(w.dayText) 11:00"])
        #expect(unknownPlace.status == 1)
        #expect(unknownPlace.stderr.contains("--from: 'Nowhere Hall' is not a known place"))
        #expect(unknownPlace.stderr.split(separator: "\n").count == 1)
        let noTime = try w.vanadmin(["rides", "book", "ann1", "--from", "SCL", "--to", "Davenport"])
        #expect(noTime.status != 0)
        #expect(noTime.stderr.contains("give one of --at, --arrive-by or --now"))
        #expect(try await w.value("SELECT count(*) FROM rides", as: Int.self) == 0)
    }
}
