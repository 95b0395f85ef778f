import Foundation

/// A Swift value that can be read from a PostgreSQL column in text format.
public protocol PGDecodable: Sendable {
    /// Decodes a column value; `text` is nil for SQL NULL.
    static func decode(column text: String?) throws(PGError) -> Self

    /// Decodes a column value from libpq's own bytes (the text form's UTF-8, nil for SQL NULL),
    /// as ``PGResultRow`` reads them. The default makes a `String` and calls
    /// ``decode(column:)``; the common types parse the bytes in place (no allocation).
    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>?) throws(PGError) -> Self

    /// Decodes a column sent in binary (``PGResultFormat/binary``) whose type, `type` (an OID),
    /// is not a text type — those arrive as their text and go to ``decode(utf8:)``. `bytes` is
    /// nil for SQL NULL. The default refuses: a type reads binary only where it says how.
    static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Self
}

extension PGDecodable {
    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>?) throws(PGError) -> Self {
        try decode(column: bytes.map { String(decoding: $0, as: UTF8.self) })
    }

    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Self {
        guard bytes != nil else { return try decode(utf8: nil) }
        throw binaryMismatch(type, Self.self)
    }
}

/// A value decoded from non-NULL text; NULL is an error unless read as an Optional.
public protocol PGTextDecodable: PGDecodable {
    /// Parses the server's text form.
    init(postgresText text: String) throws(PGError)
}

extension PGTextDecodable {
    public static func decode(column text: String?) throws(PGError) -> Self {
        guard let text else {
            throw PGError(kind: .decoding, message: "column is NULL; read it as \(Self.self)? instead")
        }
        return try Self(postgresText: text)
    }
}

extension PGJSON: PGTextDecodable {}

extension Optional: PGDecodable where Wrapped: PGDecodable {
    public static func decode(column text: String?) throws(PGError) -> Self {
        guard let text else { return nil }
        return try Wrapped.decode(column: text)
    }

    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>?) throws(PGError) -> Self {
        guard let bytes else { return nil }
        return try Wrapped.decode(utf8: bytes)
    }

    public static func decode(binary bytes: UnsafeBufferPointer<UInt8>?, type: UInt32) throws(PGError) -> Self {
        guard let bytes else { return nil }
        return try Wrapped.decode(binary: bytes, type: type)
    }
}

/// The error for SQL NULL read as a type that cannot be nil.
private func null<T>(_ type: T.Type) -> PGError {
    PGError(kind: .decoding, message: "column is NULL; read it as \(type)? instead")
}

private func mismatch<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ type: T.Type) -> PGError {
    mismatch(String(decoding: bytes, as: UTF8.self), type)
}

private func mismatch<T>(_ text: String, _ type: T.Type) -> PGError {
    PGError(kind: .decoding, message: "'\(text.prefix(40))' is not a valid \(type)")
}

extension String: PGTextDecodable {
    public init(postgresText text: String) { self = text }
}

extension Int: PGTextDecodable {
    public init(postgresText text: String) throws(PGError) {
        guard let value = Int(text) else { throw mismatch(text, Int.self) }
        self = value
    }

    /// Decimal digits with an optional `-`, read in place (what the server sends for integers).
    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>?) throws(PGError) -> Int {
        guard let bytes else { throw null(Int.self) }
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        // 18 digits cannot overflow; anything longer (or odd) goes the slow, checked way.
        guard index < bytes.count, bytes.count - index <= 18 else { return try Int(postgresText: String(decoding: bytes, as: UTF8.self)) }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit < 10 else { throw mismatch(bytes, Int.self) }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }
}

extension Int64: PGTextDecodable {
    public init(postgresText text: String) throws(PGError) {
        guard let value = Int64(text) else { throw mismatch(text, Int64.self) }
        self = value
    }
}

extension Int32: PGTextDecodable {
    public init(postgresText text: String) throws(PGError) {
        guard let value = Int32(text) else { throw mismatch(text, Int32.self) }
        self = value
    }
}

extension Double: PGTextDecodable {
    public init(postgresText text: String) throws(PGError) {
        switch text {
        case "NaN": self = .nan
        case "Infinity": self = .infinity
        case "-Infinity": self = -.infinity
        default:
            guard let value = Double(text) else { throw mismatch(text, Double.self) }
            self = value
        }
    }
}

extension Bool: PGTextDecodable {
    public init(postgresText text: String) throws(PGError) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: throw mismatch(text, Bool.self)
        }
    }

    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>?) throws(PGError) -> Bool {
        guard let bytes else { throw null(Bool.self) }
        if bytes.count == 1 {
            if bytes[0] == UInt8(ascii: "t") { return true }
            if bytes[0] == UInt8(ascii: "f") { return false }
        }
        return try Bool(postgresText: String(decoding: bytes, as: UTF8.self))
    }
}

extension UUID: PGTextDecodable {
    /// PostgreSQL's `8-4-4-4-12` lowercase hex, read by hand: Foundation's `UUID(uuidString:)`
    /// calls `sscanf`, which was the largest single cost of reading the rides around a booking.
    public init(postgresText text: String) throws(PGError) {
        guard let value = Self.parseHex(text) ?? UUID(uuidString: text) else { throw mismatch(text, UUID.self) }
        self = value
    }

    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>?) throws(PGError) -> UUID {
        guard let bytes else { throw null(UUID.self) }
        guard let value = parseHex(bytes) else { return try UUID(postgresText: String(decoding: bytes, as: UTF8.self)) }
        return value
    }

    /// The 16 bytes of `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case); nil for any other text.
    static func parseHex(_ text: String) -> UUID? {
        text.utf8.withContiguousStorageIfAvailable { parseHex($0) } ?? nil
    }

    /// ``parseHex(_:)`` over UTF-8 bytes.
    static func parseHex(_ chars: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard chars.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
            var index = 0
            var byte = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard chars[index] == 45 else { return false }  // '-'
                    index += 1
                    continue
                }
                guard let high = Self.nibble(chars[index]), let low = Self.nibble(chars[index + 1]) else { return false }
                bytes[byte] = high << 4 | low
                byte += 1
                index += 2
            }
            return true
        }
        return parsed ? UUID(uuid: uuid) : nil
    }

    private static func nibble(_ char: UInt8) -> UInt8? {
        switch char {
        case 48...57: char - 48
        case 97...102: char - 87
        case 65...70: char - 55
        default: nil
        }
    }
}

extension Date: PGTextDecodable {
    public init(postgresText text: String) throws(PGError) {
        guard let value = PGTimestamp.parse(text) else { throw mismatch(text, Date.self) }
        self = value
    }

    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>?) throws(PGError) -> Date {
        guard let bytes else { throw null(Date.self) }
        guard let value = PGTimestamp.parse(utf8: bytes) else { throw mismatch(bytes, Date.self) }
        return value
    }
}

extension Data: PGTextDecodable {
    public init(postgresText text: String) throws(PGError) {
        // bytea_output = hex: "\x" followed by two hex digits per byte.
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            throw mismatch(text, Data.self)
        }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { throw mismatch(text, Data.self) }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = Data(bytes)
    }
}
