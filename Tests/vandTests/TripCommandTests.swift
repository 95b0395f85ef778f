import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

/// `vanadmin rides book … --return-at` and `rides cancel … --with-return` (real binary, real
/// database; one van carrying one rider at a time).
@Suite("vanadmin: the way back (real binary, real database)", .serialized)
struct TripCommandTests {
    @Test func aPhoneBookingCarriesItsWayBackBothOrNeitherAndCancelsItWhenAsked() async throws {
        let w = try await DispatchWorld()
        try await w.pool.withConnection { try $0.execute("INSERT INTO whitelist (net_id, added_by) VALUES ('ann1', 'test'), ('bob2', 'test')") }
        let booked = try w.vanadmin([
            "rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 09:00", "--return-at", "\(w.dayText) 15:30",
            "--as", "dana",
        ])
        #expect(booked.status == 0, "\(booked.stderr)")
        let lines = booked.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("booked ") && lines[1].hasPrefix("and back "), "\(booked.stdout)")
        #expect(lines.last?.contains("Davenport College → Sterling Chemistry Lab") == true, "\(booked.stdout)")
        #expect(try await w.value("SELECT count(*) FROM rides WHERE return_of IS NOT NULL", as: Int.self) == 1)

        // Too soon: nothing booked, the earliest time and one that works, exit 1.
        let soon = try w.vanadmin([
            "rides", "book", "bob2", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 11:00", "--return-at", "\(w.dayText) 11:05",
        ])
        #expect(soon.status != 0 && soon.stdout.contains("the way back can start at"), "\(soon.stdout) \(soon.stderr)")
        #expect(soon.stdout.contains("times that work for the way back"), "\(soon.stdout)")
        #expect(try await w.value("SELECT count(*) FROM rides", as: Int.self) == 2)

        let orphan = try w.vanadmin([
            "rides", "book", "bob2", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 11:00", "--return-from", "Gym",
        ])
        #expect(orphan.status != 0 && orphan.stderr.contains("--return-from goes with --return-at"), "\(orphan.stderr)")
        let early = try w.vanadmin([
            "rides", "book", "bob2", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 11:00", "--return-at", "\(w.dayText) 10:00",
        ])
        #expect(early.status != 0 && early.stderr.contains("--return-at: must be after the ride there"), "\(early.stderr)")
        #expect(early.stderr.split(separator: "\n").count == 1)

        let ref = try await w.value("SELECT ref FROM rides WHERE return_of IS NULL", as: String.self)
        let cancel = try w.vanadmin(["rides", "cancel", ref, "--reason", "Van 1 broke down", "--with-return", "--as", "dana"])
        #expect(cancel.status == 0, "\(cancel.stderr)")
        #expect(cancel.stdout.contains("cancelled the way back"), "\(cancel.stdout)")
        #expect(try await w.value("SELECT count(*) FROM rides WHERE status = 'cancelled'", as: Int.self) == 2)
    }
}
