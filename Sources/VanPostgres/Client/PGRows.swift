/// The rows a statement returned, copied out of libpq so they can cross threads.
public struct PGRows: Sendable, Sequence {
    /// Column names in order.
    public let columns: [String]
    /// Cell values row by row; nil is SQL NULL.
    let cells: [[String?]]
    /// Rows touched by an INSERT/UPDATE/DELETE (from `PQcmdTuples`), or the row count.
    public let affectedRows: Int

    /// Number of rows returned.
    public var count: Int { cells.count }

    /// The first row, if any.
    public var first: PGRow? { cells.first.map { PGRow(columns: columns, values: $0) } }

    /// Iterates rows in order.
    public struct Iterator: IteratorProtocol {
        let columns: [String]
        var base: IndexingIterator<[[String?]]>

        public mutating func next() -> PGRow? {
            base.next().map { PGRow(columns: columns, values: $0) }
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(columns: columns, base: cells.makeIterator())
    }
}

/// One row of a result. Decode columns by name or position.
public struct PGRow: Sendable {
    /// Column names in order.
    public let columns: [String]
    /// Cell values; nil is SQL NULL.
    public let values: [String?]

    /// Decodes the column at `index`.
    public func decode<T: PGDecodable>(_ type: T.Type = T.self, at index: Int) throws(PGError) -> T {
        guard values.indices.contains(index) else {
            throw PGError(kind: .decoding, message: "no column at position \(index); the row has \(values.count)")
        }
        do {
            return try T.decode(column: values[index])
        } catch {
            throw PGError(kind: .decoding, message: "column \(columns[index]): \(error.message)")
        }
    }

    /// Decodes the column called `name`.
    public func decode<T: PGDecodable>(_ type: T.Type = T.self, _ name: String) throws(PGError) -> T {
        guard let index = columns.firstIndex(of: name) else {
            throw PGError(kind: .decoding, message: "no column named \(name); the row has \(columns.joined(separator: ", "))")
        }
        return try decode(type, at: index)
    }
}
