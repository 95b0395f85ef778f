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

    @Test func renumberingLeavesOtherDollarsAlone() {
        let inner: SQLQuery = "a = \(1) AND b = \(2) AND c = '$1x$20' AND d = \(1)"
        let query: SQLQuery = "SELECT \(0) WHERE \(inner)"
        #expect(query.sql == "SELECT $1 WHERE a = $2 AND b = $3 AND c = '$2x$20' AND d = $4")
        #expect(query.binds == ["0", "1", "2", "1"])
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

    /// The server's own form (read at fixed positions) and every other form agree with the
    /// date formatted, across leap days, month ends, years and fractions of every length.
    @Test func parsesEveryFormatToTheSameInstant() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let micros = Int64.random(in: -2_000_000_000_000_000...5_000_000_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let text = PGTimestamp.format(date)
            let parsed = try #require(PGTimestamp.parse(text))
            // Within a microsecond (a Double of ~5e9 s carries only ~1e-6 s), and exactly what the
            // general reading (a "T" instead of the space) makes of it.
            #expect(abs(parsed.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.0000015, "\(text)")
            #expect(PGTimestamp.parse(text.replacingOccurrences(of: " ", with: "T")) == parsed, "\(text)")
            // Fewer fraction digits, as the server trims them, and the same instant at another offset.
            let trimmed = text.replacingOccurrences(of: "0+00", with: "+00")
            #expect(PGTimestamp.parse(trimmed) == parsed)
        }
        for (text, expected) in [
            ("2024-02-29 23:59:59.5+00", 1_709_251_199.5), ("2023-12-31 00:00:00+00", 1_703_980_800.0),
            ("2024-03-01 05:30:00+05:30", 1_709_251_200.0), ("2000-02-29 12:00:00.000001+00", 951_825_600.000001),
        ] {
            #expect(abs(try #require(PGTimestamp.parse(text)).timeIntervalSince1970 - expected) < 0.0000005, "\(text)")
        }
        // Out-of-range fields are normalised as timegm does, not refused.
        #expect(PGTimestamp.parse("2023-02-30 00:00:00+00") == PGTimestamp.parse("2023-03-02 00:00:00+00"))
    }

    @Test(arguments: ["infinity", "2026-11-21", "2026-13-xx 00:00:00+00", "2026-11-21 09:07:50+00 BC"])
    func refusesOtherForms(_ text: String) {
        #expect(PGTimestamp.parse(text) == nil)
    }
}
