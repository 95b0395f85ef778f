import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

/// What `vanadmin` prints of text people wrote, and the shape of its JSON.
@Suite("vanadmin output: escaped text, the API's JSON style, --as checked everywhere", .serialized)
struct DispatcherOutputTests {
    /// Issue 24's payload: a new line, a carriage return, a colour and a window title; and issue 33's:
    /// a right-to-left override that would reverse what the terminal prints after it, and a zero-width space.
    static let hostile = "wait\nFORGED LINE\r\u{1b}[31mred\u{1b}]0;TITLE\u{07} 12 Elm St \u{202e}(rear)\u{200b}"

    /// Plants the payload in a ride's note and address, its rider's name and a rejection reason.
    func hostileRide(_ w: DispatchWorld) async throws -> Ride {
        let ride = try await w.bookRide("ann1", w.at(15))
        try await w.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET note = \(Self.hostile), pickup_address = \(Self.hostile) WHERE id = \(ride.id)")
            try conn.execute("UPDATE riders SET name = \(Self.hostile) WHERE net_id = 'ann1'")
        }
        return ride
    }

    /// Nothing a terminal acts on: no ESC, BEL or CR, and no line but those the command writes.
    func expectInert(_ output: String, _ command: String) {
        #expect(
            !output.unicodeScalars.contains { $0 == "\u{1b}" || $0 == "\u{07}" || $0 == "\r" || $0 == "\u{202e}" || $0 == "\u{200b}" },
            "\(command): \(output.debugDescription)")
        #expect(!output.split(separator: "\n").contains { $0.hasPrefix("FORGED LINE") }, "\(command): \(output.debugDescription)")
    }

    @Test func riderTextIsEscapedInEveryCommandThatShowsIt() async throws {
        let w = try await DispatchWorld()
        let ride = try await hostileRide(w)
        let ref = ride.ref.rawValue
        let reject = try w.vanadmin(["rides", "reject", ref, "--reason", Self.hostile, "--as", "dana"])
        #expect(reject.status == 0, "\(reject.stderr)")
        for command in [
            ["rides", "show", ref], ["rides", "list", "--date", w.dayText], ["manifest", "--van", "Van 1", "--date", w.dayText], ["riders", "list"],
        ] {
            let result = try w.vanadmin(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            expectInert(result.stdout, command.joined(separator: " "))
        }
        let show = try w.vanadmin(["rides", "show", ref])
        // The text is still all there, visibly escaped, as the log writes it.
        #expect(show.stdout.contains(#"wait\nFORGED LINE\r\u{1b}[31mred\u{1b}]0;TITLE\u{7} 12 Elm St \u{202e}(rear)\u{200b}"#), "\(show.stdout)")
    }

    @Test func aRefusalQuotingTypedTextIsOneEscapedLine() async throws {
        let w = try await DispatchWorld()
        let result = try w.vanadmin(["rides", "approve", "K7M\n\u{1b}[2Jgone", "--as", "dana"])
        #expect(result.status != 0)
        #expect(!result.stderr.contains("\u{1b}"))
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr.debugDescription)")
    }

    @Test func ridesJSONIsFlatWithTheServiceZonesOffsetAndMinutesAsTheAPIWritesThem() async throws {
        let w = try await DispatchWorld()
        let ride = try await w.bookRide("ann1", w.at(15))
        let list = try w.vanadmin(["rides", "list", "--date", w.dayText, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let row = try #require(rows.first)
        #expect(row["ride"] == nil && row["van_name"] == nil && row["max_ride_time"] == nil)
        #expect(row["ref"] as? String == ride.ref.rawValue)
        #expect(row["van"] as? String == "Van 1")
        #expect(row["net_id"] as? String == "ann1")
        #expect(row["rider_name"] as? String == "ANN1")
        #expect(row["max_ride_minutes"] as? Int == Int((ride.maxRideTime / 60).rounded(.down)))
        let expected = ServiceTime(timeZone: w.zone).format(ride.pickupAt)
        #expect(row["pickup_at"] as? String == expected)
        #expect(expected.hasSuffix("-05:00") || expected.hasSuffix("-04:00"))
        // The same keys as the rider API's view of the ride, plus the dispatcher's three.
        let apiKeys = Set(
            try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(RideView(ride, clock: ServiceTime(timeZone: w.zone)))) as? [String: Any]
            ).keys)
        #expect(Set(row.keys) == apiKeys.union(["net_id", "rider_name", "rider_phone"]))

        let show = try w.vanadmin(["rides", "show", ride.ref.rawValue, "--json"])
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        let history = try #require(shown["history"] as? [[String: Any]])
        #expect(history.allSatisfy { ($0["at"] as? String)?.hasSuffix("Z") == false }, "\(history)")
    }

    @Test func everyCommandWithAsRefusesAControlCharacterInTheName() async throws {
        let w = try await DispatchWorld()
        let ride = try await w.bookRide("ann1", w.at(15))
        for command in [
            ["rides", "approve", ride.ref.rawValue], ["closures", "add", w.dayText, "--reason", "snow"],
            ["vans", "add", "Van 9", "--seats", "4"], ["places", "add", "Hall", "--lat=41.3", "--lon=-72.9"],
        ] {
            let result = try w.vanadmin(command + ["--as", "eve\n\u{1b}[31m"])
            #expect(result.status == 1, "\(command): \(result.stdout)")
            #expect(result.stderr.contains("--as must be a name of 1 to 64 characters"), "\(command): \(result.stderr)")
        }
        #expect(try await w.status(ride.id) == "pending")
        #expect(try await w.value("SELECT count(*) FROM audit_log WHERE actor LIKE 'eve%'", as: Int.self) == 0)
    }

    /// A place west of Greenwich or south of the equator is added as the README types it,
    /// `--lon -72.92241` (a negative number is a value, not an option).
    @Test func aNegativeCoordinateIsTypedAsAValue() async throws {
        let w = try await DispatchWorld()
        let added = try w.vanadmin(["places", "add", "West Hall", "--lat", "41.3105", "--lon", "-72.92241", "--as", "dana"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await w.value("SELECT lon FROM places WHERE name = 'West Hall'", as: Double.self) == -72.92241)
        let south = try w.vanadmin(["places", "add", "Cape", "--lat", "-33.9", "--lon", "18.4"])
        #expect(south.status == 0, "\(south.stderr)")
    }

    /// A reason over 500 characters is refused in one line, never cut short; the ride stays as it was.
    @Test func aReasonTooLongIsRefusedNotCut() async throws {
        let w = try await DispatchWorld()
        let ride = try await w.bookRide("ann1", w.at(15))
        let result = try w.vanadmin(["rides", "reject", ride.ref.rawValue, "--reason", String(repeating: "x", count: 501)])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains("the reason is 501 characters; keep it to 500") && result.stderr.split(separator: "\n").count == 1,
            "\(result.stderr)")
        #expect(try await w.status(ride.id) == "pending")
        let fits = try w.vanadmin(["rides", "reject", ride.ref.rawValue, "--reason", String(repeating: "y", count: 500)])
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(try await w.value("SELECT length(reason) FROM rides WHERE id = \(ride.id)", as: Int.self) == 500)
    }
}
