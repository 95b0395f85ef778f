import Foundation

/// A Swift value that can be sent to PostgreSQL as a bind parameter, in text format.
public protocol PGBindable: Sendable {
    /// The text form of the value, or nil for SQL NULL.
    var postgresText: String? { get }
    /// The parameter type OID, or 0 to let the server infer it from context.
    static var postgresTypeOID: UInt32 { get }
}

extension PGBindable {
    /// Let the server infer the type.
    public static var postgresTypeOID: UInt32 { 0 }
}

extension String: PGBindable {
    public var postgresText: String? { self }
}

extension Substring: PGBindable {
    public var postgresText: String? { String(self) }
}

extension Int: PGBindable {
    public var postgresText: String? { String(self) }
    public static var postgresTypeOID: UInt32 { 20 }  // int8
}

extension Int64: PGBindable {
    public var postgresText: String? { String(self) }
    public static var postgresTypeOID: UInt32 { 20 }  // int8
}

extension Int32: PGBindable {
    public var postgresText: String? { String(self) }
    public static var postgresTypeOID: UInt32 { 23 }  // int4
}

extension Double: PGBindable {
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self > 0 ? "Infinity" : "-Infinity" }
        return "\(self)"  // shortest text that round-trips exactly
    }
    public static var postgresTypeOID: UInt32 { 701 }  // float8
}

extension Bool: PGBindable {
    public var postgresText: String? { self ? "t" : "f" }
    public static var postgresTypeOID: UInt32 { 16 }  // bool
}

extension UUID: PGBindable {
    public var postgresText: String? { uuidString }
    public static var postgresTypeOID: UInt32 { 2950 }  // uuid
}

extension Date: PGBindable {
    public var postgresText: String? { PGTimestamp.format(self) }
    public static var postgresTypeOID: UInt32 { 1184 }  // timestamptz
}

extension Data: PGBindable {
    public var postgresText: String? {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        bytes.reserveCapacity(2 + count * 2)
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    public static var postgresTypeOID: UInt32 { 17 }  // bytea
}

extension Optional: PGBindable where Wrapped: PGBindable {
    public var postgresText: String? { self.flatMap { $0.postgresText } }
    public static var postgresTypeOID: UInt32 { Wrapped.postgresTypeOID }
}

/// A Codable value stored in a `jsonb` column: bind it with `\(PGJSON(value))`
/// and read it back with `row.decode(PGJSON<T>.self, …).value`.
public struct PGJSON<Value: Codable & Sendable>: PGBindable, PGDecodable {
    /// The wrapped value.
    public var value: Value

    /// Wraps a value for a JSON column.
    public init(_ value: Value) { self.value = value }

    public var postgresText: String? {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    public static var postgresTypeOID: UInt32 { 3802 }  // jsonb

    public init(postgresText text: String) throws(PGError) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            value = try decoder.decode(Value.self, from: Data(text.utf8))
        } catch {
            throw PGError(kind: .decoding, message: "JSON column is not a valid \(Value.self): \(error)")
        }
    }
}
