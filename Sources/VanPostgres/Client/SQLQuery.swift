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
            var piece = query.sql
            // Renumber from the highest placeholder down so "$1" does not clobber "$10".
            for index in stride(from: query.binds.count, through: 1, by: -1) {
                piece = piece.replacingPlaceholder("$\(index)", with: "$\(binds.count + index)")
            }
            sql += piece
            binds += query.binds
            types += query.types
        }
    }

    /// The statement text only; parameter values are never shown.
    public var description: String { sql }
}

extension String {
    fileprivate func replacingPlaceholder(_ placeholder: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: placeholder) {
            let after = rest[range.upperBound...]
            result += rest[..<range.lowerBound]
            if let next = after.first, next.isNumber {
                result += placeholder
            } else {
                result += replacement
            }
            rest = after
        }
        result += rest
        return result
    }
}
