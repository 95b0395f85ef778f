import Foundation
import Testing
import VanTestSupport
@testable import VanPostgres
import VanServices

@Suite("Binary results read as the text results do")
struct BinaryResultsTests {
    /// One row of the table below, read through the decoders.
    struct Values: Equatable {
        let id: Int
        let at: Date?
        let local: Date?
        let uuid: UUID?
        let big: Int64?
        let int: Int?
        let int32: Int32?
        let small: Int?
        let flag: Bool?
        let text: String?
        let name: String?
        let double: Double?
        let raw: Data?

        init(_ row: PGResultRow) throws {
            id = try row.decode(at: 0)
            at = try row.decode(at: 1)
            local = try row.decode(at: 2)
            uuid = try row.decode(at: 3)
            big = try row.decode(at: 4)
            int = try row.decode(at: 5)
            int32 = try row.decode(at: 6)
            small = try row.decode(at: 7)
            flag = try row.decode(at: 8)
            text = try row.decode(at: 9)
            name = try row.decode(at: 10)
            double = try row.decode(at: 11)
            raw = try row.decode(at: 12)
        }
    }

    @Test func randomValuesReadTheSameInBinaryAsInText() async throws {
        let db = try await TestCluster.makeDatabase()
        let (text, binary, prepared) = try await db.pool.withConnection { conn in
            // 20,000 random rows (a fifth of each column NULL), then the edges by hand: the
            // timestamp epochs (1970, 2000), before both, microseconds either side of a second,
            // the integer limits, negative zero, a non-ASCII text.
            try conn.execute(
                simple: """
                    CREATE TEMP TABLE v AS
                    SELECT g AS id,
                           CASE WHEN random() < 0.8 THEN timestamptz '1800-01-01 00:00:00+00' + random() * interval '400 years' END AS at,
                           CASE WHEN random() < 0.8 THEN timestamp '1950-01-01' + random() * interval '100 years' END AS local,
                           CASE WHEN random() < 0.8 THEN gen_random_uuid() END AS uuid,
                           CASE WHEN random() < 0.8 THEN (random() * 18e18 - 9e18)::int8 END AS big,
                           CASE WHEN random() < 0.8 THEN (random() * 4e9 - 2e9)::int8 END AS int,
                           CASE WHEN random() < 0.8 THEN (random() * 4e9 - 2e9)::int4 END AS int32,
                           CASE WHEN random() < 0.8 THEN (random() * 65000 - 32500)::int2 END AS small,
                           CASE WHEN random() < 0.8 THEN random() < 0.5 END AS flag,
                           CASE WHEN random() < 0.8 THEN md5(random()::text) || ' é 🚐 ' || g END AS text,
                           CASE WHEN random() < 0.8 THEN md5(random()::text)::varchar(40) END AS name,
                           CASE WHEN random() < 0.8 THEN (random() - 0.5) * 10 ^ (random() * 40 - 20) END AS double,
                           CASE WHEN random() < 0.8 THEN decode(md5(random()::text), 'hex') END AS raw
                    FROM generate_series(1, 20000) g;
                    INSERT INTO v VALUES
                        (20001, '1970-01-01 00:00:00+00', '2000-01-01 00:00:00', '00000000-0000-0000-0000-000000000000',
                         9223372036854775807, 2147483647, 2147483647, 32767, true, '', '', 0, ''),
                        (20002, '2000-01-01 00:00:00+00', '1999-12-31 23:59:59.999999', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
                         -9223372036854775808, -2147483648, -2147483648, -32768, false, 'ü', 'x', '-0', '\\x00ff'),
                        (20003, '1999-12-31 23:59:59.999999+00', '1969-12-31 23:59:59.000001', NULL,
                         -1, 0, 0, 0, NULL, NULL, NULL, 1e308, NULL),
                        (20004, '2000-01-01 00:00:00.000001+00', '0001-01-01 00:00:00', NULL,
                         1, -1, -1, -1, NULL, NULL, NULL, -4.9e-324, NULL),
                        (20005, '1969-12-31 23:59:59.5+00', '9999-12-31 23:59:59.999999', NULL,
                         NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0.1, NULL)
                    """)
            let query: SQLQuery = "SELECT id, at, local, uuid, big, int, int32, small, flag, text, name, double, raw FROM v ORDER BY id"
            return (
                try conn.query(query, results: .text, rows: Values.init),
                try conn.query(query, results: .binary, rows: Values.init),
                try conn.query(query.prepared(), results: .binary, rows: Values.init)
            )
        }
        #expect(text.count == 20_005)
        #expect(binary == text)
        #expect(prepared == text)
        // The random rows do cover what they should: NULLs and values of each sign.
        #expect(text.contains { $0.at == nil } && text.contains { ($0.at?.timeIntervalSince1970 ?? 0) < 0 })
        #expect(text.contains { ($0.big ?? 0) < 0 } && text.contains { ($0.big ?? 0) > 0 })
        #expect(text.last?.double == 0.1)
        #expect(text.first { $0.id == 20_002 }?.raw == Data([0, 255]))
        await db.close()
    }

    @Test func aBinaryColumnWithoutABinaryReadingIsAnErrorNotAGuess() async throws {
        let db = try await TestCluster.makeDatabase()
        try await db.pool.withConnection { conn throws in
            let numeric = #expect(throws: PGError.self) {
                try conn.query("SELECT 1.5::numeric", results: .binary) { row in try row.decode(Double.self, at: 0) }
            }
            #expect(numeric?.kind == .decoding)
            // A UUID column read as a String is fine in text and refused in binary.
            let asText = try conn.query("SELECT '00000000-0000-0000-0000-000000000001'::uuid", results: .text) { try $0.decode(String.self, at: 0) }
            #expect(asText == ["00000000-0000-0000-0000-000000000001"])
            #expect(throws: PGError.self) {
                try conn.query("SELECT '00000000-0000-0000-0000-000000000001'::uuid", results: .binary) { try $0.decode(String.self, at: 0) }
            }
            // An int8 too large for Int32.
            #expect(throws: PGError.self) {
                try conn.query("SELECT 3000000000::int8", results: .binary) { try $0.decode(Int32.self, at: 0) }
            }
            // Infinite timestamps are refused in both forms.
            for format in [PGResultFormat.text, .binary] {
                #expect(throws: PGError.self) {
                    try conn.query("SELECT 'infinity'::timestamptz", results: format) { try $0.decode(Date.self, at: 0) }
                }
            }
        }
        await db.close()
    }
}
