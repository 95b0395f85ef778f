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

    @Test func aPhoneBookingWithAWillCallIsBookedWhenSheCalls() async throws {
        let w = try await DispatchWorld()
        try await w.pool.withConnection { try $0.execute("INSERT INTO whitelist (net_id, added_by) VALUES ('ann1', 'test'), ('bob2', 'test')") }
        // "I'm ready" books at the machine's time (the CLI's clock): the van runs at every hour of every day here.
        #expect(try w.vanadmin(["hours", "set", "Mon-Sun 00:00-24:00"]).status == 0)
        try await w.pool.withConnection { try $0.execute("DELETE FROM closures") }
        let both = try w.vanadmin([
            "rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 09:00", "--will-call", "--return-at",
            "\(w.dayText) 15:30",
        ])
        #expect(both.status != 0 && both.stderr.contains("give --return-at or --will-call, not both"), "\(both.stderr)")
        let booked = try w.vanadmin(["rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 09:00", "--will-call"])
        #expect(booked.status == 0, "\(booked.stderr)")
        #expect(booked.stdout.contains("and back when she calls, from Davenport College: vanadmin rides ready "), "\(booked.stdout)")
        let ref = try await w.value("SELECT ref FROM rides", as: String.self)
        let shown = try w.vanadmin(["rides", "show", ref])
        #expect(shown.stdout.contains("she calls when ready, from Davenport College: open since"), "\(shown.stdout)")

        // Before the driver has dropped her off: one line, exit 1, nothing booked.
        let early = try w.vanadmin(["rides", "ready", ref, "--as", "dana"])
        #expect(early.status != 0 && early.stderr.contains("Your ride there is not over yet"), "\(early.stderr)")
        #expect(early.stderr.split(separator: "\n").count == 1)
        try await w.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET status = 'approved' WHERE ref = \(ref)")
            try conn.execute("UPDATE rides SET status = 'completed' WHERE ref = \(ref)")
        }
        let ready = try w.vanadmin(["rides", "ready", ref, "--as", "dana"])
        #expect(ready.status == 0 && ready.stdout.hasPrefix("booked the way back "), "\(ready.stdout) \(ready.stderr)")
        #expect(ready.stdout.contains("Davenport College → Sterling Chemistry Lab"), "\(ready.stdout)")
        let again = try w.vanadmin(["rides", "ready", ref, "--as", "dana"])
        #expect(again.status == 0 && again.stdout.hasPrefix("already booked: "), "\(again.stdout)")
        #expect(try await w.value("SELECT count(*) FROM rides WHERE return_of IS NOT NULL AND kind = 'on_demand'", as: Int.self) == 1)
        #expect(try await w.value("SELECT count(*) FROM audit_log WHERE action = 'ride.ready_for_rider' AND actor = 'dana'", as: Int.self) == 1)

        // Cancelling a ride there with its return calls off the will-call.
        let other = try w.vanadmin(["rides", "book", "bob2", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 11:00", "--will-call"])
        #expect(other.status == 0, "\(other.stderr)")
        let otherRef = try await w.value("SELECT ref FROM rides WHERE net_id = 'bob2'", as: String.self)
        let cancel = try w.vanadmin(["rides", "cancel", otherRef, "--reason", "Van 1 broke down", "--with-return", "--as", "dana"])
        #expect(cancel.status == 0 && cancel.stdout.contains("called off the way back she would call for"), "\(cancel.stdout) \(cancel.stderr)")
        #expect(try await w.value("SELECT count(*) FROM will_calls WHERE closed_at IS NOT NULL", as: Int.self) == 1)

        // A no-show on a ride there leaves its way back, flagged for the dispatcher.
        let trip = try w.vanadmin([
            "rides", "book", "bob2", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 13:00", "--return-at", "\(w.dayText) 16:00",
        ])
        #expect(trip.status == 0, "\(trip.stderr)")
        let thereRef = try await w.value("SELECT ref FROM rides WHERE net_id = 'bob2' AND status = 'pending' AND return_of IS NULL", as: String.self)
        let backRef = try await w.value("SELECT ref FROM rides WHERE net_id = 'bob2' AND return_of IS NOT NULL", as: String.self)
        try await w.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET status = 'approved' WHERE ref = \(thereRef)")
            try conn.execute("UPDATE rides SET status = 'no_show' WHERE ref = \(thereRef)")
        }
        let back = try w.vanadmin(["rides", "show", backRef])
        #expect(back.stdout.contains("\(thereRef) at 1:00 PM (no_show) — SHE DID NOT SHOW for the ride there"), "\(back.stdout)")
        #expect(try await w.value("SELECT status FROM rides WHERE ref = \(backRef)", as: String.self) == "pending")
    }
}
