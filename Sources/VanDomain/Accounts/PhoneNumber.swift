import Foundation

/// A phone number the dispatcher can call, normalized to digits with an optional
/// leading `+` (`"(607) 555-0100"` becomes `"6075550100"`).
///
/// Country rules are not guessed: any 7 to 15 digits (the E.164 maximum) pass.
public struct PhoneNumber: Hashable, Sendable, ValidatedString {
    /// Digits, with a leading `+` when one was given.
    public let rawValue: String

    /// Parses `raw`, allowing spaces, dots, dashes and parentheses as separators.
    /// - Throws: `ValidationError` for `field` (default `"phone"`).
    public init(_ raw: String, field: String = "phone") throws(ValidationError) {
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        var digits = ""
        var plus = false
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            switch scalar {
            case "0"..."9": digits.unicodeScalars.append(scalar)
            case "+" where offset == 0: plus = true
            case " ", "-", ".", "(", ")": continue
            default:
                throw ValidationError(field: field, reason: "may contain only digits, spaces, - . ( ) and a leading +; \"\(scalar)\" is not allowed")
            }
        }
        guard (7...15).contains(digits.count) else {
            throw ValidationError(field: field, reason: "must have 7 to 15 digits, got \(digits.count); e.g. \"607-555-0100\"")
        }
        rawValue = (plus ? "+" : "") + digits
    }
}

extension PhoneNumber {
    /// ``init(_:field:)``, for decoding.
    public init(validating text: String) throws(ValidationError) { try self.init(text) }
}
