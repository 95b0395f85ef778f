import Foundation

/// An e-mail address a rider can be reached at, checked for shape only
/// (one `@`, a dotted domain, no spaces); whether it exists is not our business.
public struct EmailAddress: Hashable, Sendable, ValidatedString {
    /// The trimmed address, domain lowercased, e.g. `"jd123@example.edu"`.
    public let rawValue: String

    /// Longest accepted address (RFC 5321 path limit).
    public static let maxLength = 254

    /// Trims and checks `raw`.
    /// - Throws: `ValidationError` for `field` (default `"email"`).
    public init(_ raw: String, field: String = "email") throws(ValidationError) {
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        func fail(_ reason: String) -> ValidationError { ValidationError(field: field, reason: reason) }
        guard !value.isEmpty else { throw fail("is empty; give an address like \"jd123@example.edu\"") }
        // Code points, as the message says and as openapi.yaml's maxLength counts.
        guard value.unicodeScalars.count <= Self.maxLength else {
            throw fail("must be at most \(Self.maxLength) characters long")
        }
        guard !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
            throw fail("must not contain spaces")
        }
        // Split by code points, not by Characters: "@" followed by a combining mark or an emoji
        // modifier is one Character, and would hide the "@" (openapi.yaml's pattern reads code points).
        let parts = value.unicodeScalars.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].unicodeScalars.count <= 64 else {
            throw fail("\"\(value)\" is not an e-mail address; use one like \"jd123@example.edu\"")
        }
        let labels = parts[1].unicodeScalars.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.first != "-" && $0.last != "-" }) else {
            throw fail("\"\(value)\" has no valid domain after the @; use one like \"jd123@example.edu\"")
        }
        rawValue = "\(parts[0])@\(parts[1].lowercased())"
    }
}

extension EmailAddress {
    /// ``init(_:field:)``, for decoding.
    public init(validating text: String) throws(ValidationError) { try self.init(text) }
}
