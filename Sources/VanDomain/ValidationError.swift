import Foundation

/// A value that failed a domain rule, naming the offending field and what to do about it.
///
/// Every validator in VanDomain throws this, so the HTTP layer can turn it into a
/// per-field problem (`422`) without knowing which type raised it.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The wire name of the field that is wrong, e.g. `"net_id"`, `"lat"`, `"seats"`.
    public let field: String
    /// What is wrong with the value and what a valid one looks like.
    public let reason: String

    /// Creates an error for `field` explaining `reason`.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// Text holding NUL (U+0000), which PostgreSQL's text cannot store and libpq would cut at:
    /// refused wherever people's text enters, the same way for the API and the web app.
    public static func nul(field: String) -> ValidationError {
        ValidationError(field: field, reason: "must not contain the NUL character (\\u0000)")
    }

    /// Throws ``nul(field:)`` when `text` holds NUL.
    public static func checkNoNul(_ text: String?, field: String) throws(ValidationError) {
        if let text, text.utf8.contains(0) { throw nul(field: field) }
    }

    /// `"<field>: <reason>"`, e.g. `"lat: must be between -90 and 90, got 91.0"`.
    public var description: String { "\(field): \(reason)" }
}

/// Several fields broke their rules at once; a form or request is refused with all of them,
/// so the rider fixes everything in one go.
public struct InvalidFields: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each field's problem, in the order they were found.
    public let errors: [ValidationError]

    /// The problems of one request.
    public init(_ errors: [ValidationError]) { self.errors = errors }

    /// The problems joined with "; ".
    public var description: String { errors.map(\.description).joined(separator: "; ") }
}
