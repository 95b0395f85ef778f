import CPostgres

/// Reads columns by name or position: ``PGRow`` (copied out of libpq) and ``PGResultRow`` (read in place).
public protocol PGRowReading {
    /// Decodes the column at `index`.
    func decode<T: PGDecodable>(_ type: T.Type, at index: Int) throws(PGError) -> T
    /// Decodes the column named `name`; a name the query does not return is an error naming the columns it does.
    func decode<T: PGDecodable>(_ type: T.Type, _ name: String) throws(PGError) -> T
}

extension PGRowReading {
    /// Decodes the column at `index` as the type the caller expects.
    public func decode<T: PGDecodable>(at index: Int) throws(PGError) -> T {
        try decode(T.self, at: index)
    }
}

extension PGRow: PGRowReading {}

/// One row of a result still held by libpq, handed to the closure of
/// ``PGConnection/query(_:rows:)``: columns are decoded straight from libpq's bytes
/// (``PGDecodable/decode(utf8:)``, or ``PGDecodable/decode(binary:type:)`` for a binary result
/// whose column is not of a text type), with no `String` per cell. Valid only inside that closure.
public struct PGResultRow: PGRowReading {
    let result: OpaquePointer
    let row: Int32
    let columnCount: Int
    let format: PGResultFormat
    /// The result's column names, in order.
    let names: [String]

    /// Decodes the column named `name` (looked up among the result's few names, no libpq call).
    public func decode<T: PGDecodable>(_ type: T.Type = T.self, _ name: String) throws(PGError) -> T {
        guard let index = names.firstIndex(of: name) else {
            throw PGError(kind: .decoding, message: "no column named \(name); the row has \(names.joined(separator: ", "))")
        }
        return try decode(type, at: index)
    }

    /// Decodes the column at `index`.
    public func decode<T: PGDecodable>(_ type: T.Type = T.self, at index: Int) throws(PGError) -> T {
        guard index >= 0, index < columnCount else {
            throw PGError(kind: .decoding, message: "no column at position \(index); the row has \(columnCount)")
        }
        let column = Int32(index)
        do {
            if PQgetisnull(result, row, column) == 1 { return try T.decode(utf8: nil) }
            let length = Int(PQgetlength(result, row, column))
            let start = UnsafeRawPointer(PQgetvalue(result, row, column)!).assumingMemoryBound(to: UInt8.self)
            let bytes = UnsafeBufferPointer(start: start, count: length)
            if format == .binary {
                let type = UInt32(PQftype(result, column))
                if !PGTypeOID.isText(type) { return try T.decode(binary: bytes, type: type) }
            }
            return try T.decode(utf8: bytes)
        } catch {
            throw PGError(kind: .decoding, message: "column \(String(cString: PQfname(result, column))): \(error.message)")
        }
    }
}
