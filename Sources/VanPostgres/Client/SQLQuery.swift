import Foundation
/// A SQL statement with bind parameters, written as an interpolated string.
///
/// Every interpolated value becomes a `$n` parameter, so user text can never
/// change the statement:
///
///     let rows = try conn.query("SELECT name FROM riders WHERE net_id = \(netID)")
///
/// Fixed SQL fragments chosen by code (never by a user) can be spliced with
/// `\(unescaped: "ORDER BY pickup_at")`.
public struct SQLQuery: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The statement text with `$1`, `$2`, … placeholders.
    public private(set) var sql: String
    /// The parameter values in text format; nil is SQL NULL.
    public private(set) var binds: [String?]
    /// The parameter type OIDs (0 lets the server infer).
    public private(set) var types: [UInt32]
    /// Whether ``PGConnection/query(_:)`` runs it as a named prepared statement, parsed and
    /// planned once per connection (see ``prepared()``).
    public private(set) var isPrepared = false

    /// This statement, run as a named prepared statement on each connection: parsed and planned
    /// once, not on every run. For statements on the hot path (a rider's session and ride reads);
    /// their plan must not depend on the values bound, as PostgreSQL may settle on a generic plan.
    public func prepared() -> SQLQuery {
        var query = self
        query.isPrepared = true
        return query
    }

    /// A statement without parameters.
    public init(stringLiteral value: String) {
        sql = value
        binds = []
        types = []
    }

    /// Builds a statement from an interpolation.
    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        binds = stringInterpolation.binds
        types = stringInterpolation.types
    }

    /// Collects literal text and parameters.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [String?] = []
        var types: [UInt32] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
            types.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Appends a bind parameter.
        public mutating func appendInterpolation<Value: PGBindable>(_ value: Value) {
            binds.append(value.postgresText)
            types.append(Value.postgresTypeOID)
            sql += "$\(binds.count)"
        }

        /// Appends a bind parameter that may be NULL.
        public mutating func appendInterpolation<Value: PGBindable>(_ value: Value?) {
            binds.append(value?.postgresText)
            types.append(Value.postgresTypeOID)
            sql += "$\(binds.count)"
        }

        /// Appends a fixed SQL fragment chosen by code. Never pass user text here.
        public mutating func appendInterpolation(unescaped fragment: StaticString) {
            sql += fragment.description
        }

        /// Appends another query, renumbering its parameters.
        public mutating func appendInterpolation(_ query: SQLQuery) {
            sql += binds.isEmpty ? query.sql : query.sql.renumberingPlaceholders(upTo: query.binds.count, by: binds.count)
            binds += query.binds
            types += query.types
        }
    }

    /// The statement text only; parameter values are never shown.
    public var description: String { sql }
}

extension String {
    /// The text with every placeholder `$1` … `$count` (a `$` and a number that does not go
    /// on in another digit) moved up by `offset`, in one pass; other `$` text is left alone.
    fileprivate func renumberingPlaceholders(upTo count: Int, by offset: Int) -> String {
        guard count > 0, offset > 0 else { return self }
        let utf8 = Array(self.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count + count * 2)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            result.append(byte)
            index += 1
            guard byte == UInt8(ascii: "$") else { continue }
            var end = index
            var number = 0
            while end < utf8.count, utf8[end] >= 48, utf8[end] <= 57, number <= count {
                number = number * 10 + Int(utf8[end] - 48)
                end += 1
            }
            // A longer run of digits, or a number past `count`, is not one of this query's placeholders.
            guard end > index, number >= 1, number <= count, end == utf8.count || !(48...57).contains(utf8[end]) else { continue }
            result.append(contentsOf: String(number + offset).utf8)
            index = end
        }
        return String(decoding: result, as: UTF8.self)
    }
}
