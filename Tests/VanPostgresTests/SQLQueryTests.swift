import Foundation
import Testing
@testable import VanServices
@testable import VanPostgres

@Suite("SQLQuery builds bind parameters, never text")
struct SQLQueryTests {
    @Test func interpolatedValuesBecomePlaceholders() {
        let name = "O'Brien'; DROP TABLE riders; --"
        let query: SQLQuery = "SELECT * FROM riders WHERE name = \(name) AND failed_logins < \(3)"
        #expect(query.sql == "SELECT * FROM riders WHERE name = $1 AND failed_logins < $2")
        #expect(query.binds == [name, "3"])
        #expect(query.types == [0, 20])
    }

    @Test func nilBindsAsNull() {
        let missing: String? = nil
        let query: SQLQuery = "SELECT \(missing)"
        #expect(query.binds == [nil])
    }

    @Test func nestedQueriesAreRenumbered() {
        let inner: SQLQuery = "net_id = \("a") OR net_id = \("b")"
        var values: [Int] = []
        for index in 1...9 { values.append(index) }
        let wide: SQLQuery = "\(1),\(2),\(3),\(4),\(5),\(6),\(7),\(8),\(9)"
        let query: SQLQuery = "SELECT \(wide) WHERE \(inner)"
        #expect(query.sql == "SELECT $1,$2,$3,$4,$5,$6,$7,$8,$9 WHERE net_id = $10 OR net_id = $11")
        #expect(query.binds.count == 11)
    }

    @Test func descriptionShowsNoValues() {
        let secret = "hunter2-password"
        let query: SQLQuery = "UPDATE riders SET password_hash = \(secret)"
        #expect(!query.description.contains(secret))
    }
}

@Suite("timestamptz text codec")
struct PostgresTimestampTests {
    @Test func formatsInUTCWithMicroseconds() {
        let date = Date(timeIntervalSince1970: 1_795_000_000.123456)
        #expect(PGTimestamp.format(date) == "2026-11-18 11:06:40.123456+00")
    }

    @Test(arguments: [
        ("2026-11-21 09:07:50+00", 1_795_252_070.0),
        ("2026-11-21 09:07:50.5+00", 1_795_252_070.5),
        ("2026-11-21 04:07:50-05", 1_795_252_070.0),
        ("2026-11-21 14:37:50+05:30", 1_795_252_070.0),
        ("1969-12-31 23:59:59.999999+00", -0.000001),
    ])
    func parses(_ text: String, _ expected: Double) throws {
        let date = try #require(PGTimestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - expected) < 0.0000005)
    }

    @Test(arguments: ["infinity", "2026-11-21", "2026-13-xx 00:00:00+00", "2026-11-21 09:07:50+00 BC"])
    func refusesOtherForms(_ text: String) {
        #expect(PGTimestamp.parse(text) == nil)
    }
}
