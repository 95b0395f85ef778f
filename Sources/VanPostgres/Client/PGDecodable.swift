import Foundation

/// A Swift value that can be read from a PostgreSQL column in text format.
public protocol PGDecodable: Sendable {
    /// Decodes a column value; `text` is nil for SQL NULL.
    static func decode(column text: String?) throws(PGError) -> Self
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
}

extension UUID: PGTextDecodable {
    /// PostgreSQL's `8-4-4-4-12` lowercase hex, read by hand: Foundation's `UUID(uuidString:)`
    /// calls `sscanf`, which was the largest single cost of reading the rides around a booking.
    public init(postgresText text: String) throws(PGError) {
        guard let value = Self.parseHex(text) ?? UUID(uuidString: text) else { throw mismatch(text, UUID.self) }
        self = value
    }

    /// The 16 bytes of `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case); nil for any other text.
    static func parseHex(_ text: String) -> UUID? {
        text.utf8.withContiguousStorageIfAvailable { chars -> UUID? in
            guard chars.count == 36 else { return nil }
            var bytes = [UInt8](repeating: 0, count: 16)
            var index = 0
            var byte = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard chars[index] == 45 else { return nil }  // '-'
                    index += 1
                    continue
                }
                guard let high = Self.nibble(chars[index]), let low = Self.nibble(chars[index + 1]) else { return nil }
                bytes[byte] = high << 4 | low
                byte += 1
                index += 2
            }
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        } ?? nil
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
