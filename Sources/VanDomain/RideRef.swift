import Foundation

/// A ride's short reference, e.g. `K7M-3QX`: what a rider reads to the dispatcher over the
/// phone and what the dispatcher types. Ride ids are time-ordered (UUID v7), so their first
/// characters are shared by rides booked close together; the reference is not.
///
/// Six symbols of Crockford's base 32 (digits and letters without I, L, O and U: no
/// one/el/zero/oh to tell apart, and no accidental words), in two groups of three that
/// are said like a phone number. 30 random bits: a billion codes, drawn by the database at
/// insert and kept unique by a UNIQUE constraint (migration 0020), never reused, and the
/// same for the life of the ride (a re-timed ride keeps it).
///
/// Reading is forgiving, as Crockford intends: case, spaces and the dash do not matter,
/// and `I`/`L` read as `1`, `O` as `0` (`k7m 3qx`, `K7M3QX`, `k7m-3qx` are one reference).
public struct RideRef: Hashable, Sendable, ValidatedString {
    /// The canonical form, `XXX-XXX` in capitals.
    public let rawValue: String

    /// The 32 symbols, in value order.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// Reads a reference as a person types it.
    /// - Throws: `ValidationError` with field `"ref"` when it is not six base-32 symbols.
    public init(validating text: String) throws(ValidationError) {
        // Already canonical (every reference read back from the database): take it as it is.
        if Self.isCanonical(text) {
            rawValue = text
            return
        }
        var symbols: [Character] = []
        for character in text.uppercased() {
            switch character {
            case " ", "-": continue
            case "I", "L": symbols.append("1")
            case "O": symbols.append("0")
            default:
                guard Self.alphabet.contains(character) else {
                    throw ValidationError(
                        field: "ref", reason: "\"\(character)\" is not used in ride references (digits and letters except I, L, O, U)")
                }
                symbols.append(character)
            }
        }
        guard symbols.count == 6 else {
            throw ValidationError(field: "ref", reason: "a ride reference has 6 letters and digits, like K7M-3QX; got \(symbols.count)")
        }
        rawValue = String(symbols[0..<3]) + "-" + String(symbols[3..<6])
    }

    /// The canonical symbols as bytes (the capitals and digits of ``alphabet``).
    private static let canonicalBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 128)
        for character in alphabet { table[Int(character.asciiValue!)] = true }
        return table
    }()

    /// Whether `text` is `XXX-XXX` in symbols of ``alphabet`` (no mapping, no case change needed).
    private static func isCanonical(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 7 else { return false }
        var index = 0
        for byte in utf8 {
            if index == 3 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard byte < 128, canonicalBytes[Int(byte)] else { return false }
            }
            index += 1
        }
        return true
    }

    /// The reference as a screen reader should say it: one symbol at a time, in two groups
    /// (`K 7 M, 3 Q X`), so no group is read as a word or a number.
    public var spelled: String {
        let symbols = rawValue.filter { $0 != "-" }.map(String.init)
        return symbols[0..<3].joined(separator: " ") + ", " + symbols[3..<6].joined(separator: " ")
    }
}
