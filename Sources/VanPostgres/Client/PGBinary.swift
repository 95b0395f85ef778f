import Foundation

/// The form in which the server sends a statement's result columns.
///
/// Text is the default and what every decoder reads. Binary spares the server its output
/// functions (`timestamptz_out` was a sixth of PostgreSQL's time on a rider's ride page) and
/// the client its parsing; it is asked for per statement, on the hot reads, through
/// ``PGConnection/query(_:results:rows:)``. In binary, columns of the text types arrive as the
/// same UTF-8 as in text, so every text decoder reads them unchanged; the other types a decoder
/// must know in binary (``PGDecodable/decode(binary:type:)``): integers, `bool`, `uuid`,
/// `timestamptz`/`timestamp`, `float8` and `bytea` do.
public enum PGResultFormat: Int32, Sendable {
    /// The types' text output (`2026-11-21 09:07:50.123456+00`).
    case text = 0
    /// The types' binary send form (for `timestamptz`, microseconds since 2000-01-01 UTC).
    case binary = 1
}

/// Type OIDs of the built-in types the binary decoders know.
enum PGTypeOID {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let name: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let float8: UInt32 = 701
    static let unknown: UInt32 = 705
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043
    static let timestamp: UInt32 = 1114
    static let timestamptz: UInt32 = 1184
    static let uuid: UInt32 = 2950

    /// Whether a column of this type is sent as its text's UTF-8 in binary as well.
    static func isText(_ oid: UInt32) -> Bool {
        oid == text || oid == varchar || oid == bpchar || oid == name || oid == unknown
    }
}

/// Reading the binary send forms: big-endian integers and IEEE floats.
enum PGBinary {
    /// The big-endian signed integer in `bytes` (2, 4 or 8 of them); nil for another length.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        switch bytes.count {
        case 8: return Int64(bitPattern: unsigned(bytes))
        case 4: return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: unsigned(bytes))))
        case 2: return Int64(Int16(bitPattern: UInt16(truncatingIfNeeded: unsigned(bytes))))
        default: return nil
        }
    }

    /// The bytes as one big-endian unsigned number (at most 8 of them).
    static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        return value
    }

    /// Seconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch for timestamps.
    static let postgresEpoch: Int64 = 946_684_800

    /// A `timestamptz` (or `timestamp`, read as UTC) from its microseconds since 2000-01-01 UTC:
    /// the same `Date` the text form gives (whole seconds plus the microseconds as a fraction);
    /// nil for `infinity` and `-infinity`, which the text reading refuses too.
    static func date(micros: Int64) -> Date? {
        guard micros != .max, micros != .min else { return nil }
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 { fraction += 1_000_000; seconds -= 1 }
        return Date(timeIntervalSince1970: Double(seconds + postgresEpoch) + Double(fraction) / 1_000_000)
    }
}

/// The error for a column whose type a binary decoder does not read.
func binaryMismatch<T>(_ type: UInt32, _ swiftType: T.Type) -> PGError {
    PGError(kind: .decoding, message: "a binary column of type \(type) cannot be read as \(swiftType)")
}

extension Int {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Int {
        guard let bytes else { return try decode(utf8: nil) }
        guard type == PGTypeOID.int8 || type == PGTypeOID.int4 || type == PGTypeOID.int2, let value = PGBinary.integer(bytes) else {
            throw binaryMismatch(type, Int.self)
        }
        return Int(value)
    }
}

extension Int64 {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Int64 {
        Int64(try Int.decode(binary: bytes, type: type))
    }
}

extension Int32 {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Int32 {
        guard let value = Int32(exactly: try Int.decode(binary: bytes, type: type)) else { throw binaryMismatch(type, Int32.self) }
        return value
    }
}

extension Bool {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Bool {
        guard let bytes else { return try decode(utf8: nil) }
        guard type == PGTypeOID.bool, bytes.count == 1 else { throw binaryMismatch(type, Bool.self) }
        return bytes[0] != 0
    }
}

extension UUID {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> UUID {
        guard let bytes else { return try decode(utf8: nil) }
        guard type == PGTypeOID.uuid, bytes.count == 16 else { throw binaryMismatch(type, UUID.self) }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        return UUID(uuid: uuid)
    }
}

extension Date {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Date {
        guard let bytes else { return try decode(utf8: nil) }
        guard type == PGTypeOID.timestamptz || type == PGTypeOID.timestamp, bytes.count == 8 else {
            throw binaryMismatch(type, Date.self)
        }
        guard let date = PGBinary.date(micros: Int64(bitPattern: PGBinary.unsigned(bytes))) else {
            throw PGError(kind: .decoding, message: "an infinite timestamp is not a valid Date")
        }
        return date
    }
}

extension Double {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Double {
        guard let bytes else { return try decode(utf8: nil) }
        // float8 only: a float4's text is its shortest decimal, which reads as another Double
        // than the Float's own value, so the two forms would not agree.
        guard type == PGTypeOID.float8, bytes.count == 8 else { throw binaryMismatch(type, Double.self) }
        return Double(bitPattern: PGBinary.unsigned(bytes))
    }
}

extension Data {
    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Data {
        guard let bytes else { return try decode(utf8: nil) }
        guard type == PGTypeOID.bytea else { throw binaryMismatch(type, Data.self) }
        return Data(buffer: bytes)
    }
}
