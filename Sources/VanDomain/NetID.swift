import Foundation

/// A campus network ID such as `"jd123"`: the rider's identity across the service.
///
/// Always normalized (trimmed, lowercased) and valid: 2–32 characters, starting with
/// a letter, then letters, digits, or `.`, `_`, `-` (never at the end).
/// Encodes as a plain JSON string; decoding validates.
public struct NetID: Hashable, Sendable, ValidatedString, Comparable {
    /// The normalized ID, e.g. `"jd123"`.
    public let rawValue: String

    /// Shortest accepted ID, in characters.
    public static let minLength = 2
    /// Longest accepted ID, in characters.
    public static let maxLength = 32

    /// Normalizes and validates `raw`; `"  JD123 "` becomes `"jd123"`.
    /// - Throws: `ValidationError` with field `"net_id"` when the ID is malformed.
    public init(_ raw: String) throws(ValidationError) {
        // Net IDs read back from the database are already trimmed and lowercase: check that
        // cheaply before paying for Foundation's trimming and case mapping.
        let plain = raw.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 46 || $0 == 95 || $0 == 45 }
        let value = plain ? raw : raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        self.rawValue = try Self.validated(value)
    }

    /// Orders IDs alphabetically by their normalized form.
    public static func < (lhs: NetID, rhs: NetID) -> Bool { lhs.rawValue < rhs.rawValue }

    private static func validated(_ value: String) throws(ValidationError) -> String {
        func fail(_ reason: String) -> ValidationError { ValidationError(field: "net_id", reason: reason) }
        let scalars = Array(value.unicodeScalars)
        guard !scalars.isEmpty else {
            throw fail("is empty; enter your campus net ID, e.g. \"jd123\"")
        }
        guard (minLength...maxLength).contains(scalars.count) else {
            throw fail("must be \(minLength) to \(maxLength) characters long, got \(scalars.count)")
        }
        guard let first = scalars.first, isLetter(first) else {
            throw fail("must start with a letter a-z, got \"\(value)\"")
        }
        for scalar in scalars.dropFirst() where !(isLetter(scalar) || isDigit(scalar) || isPunctuation(scalar)) {
            throw fail("may contain only letters a-z, digits 0-9 and . _ -; \"\(scalar)\" is not allowed")
        }
        if let last = scalars.last, isPunctuation(last) {
            throw fail("must end with a letter or digit, got \"\(value)\"")
        }
        return value
    }

    private static func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) }
    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
    private static func isPunctuation(_ s: Unicode.Scalar) -> Bool { s == "." || s == "_" || s == "-" }
}

extension NetID {
    /// ``init(_:)``, for decoding.
    public init(validating text: String) throws(ValidationError) { try self.init(text) }
}
