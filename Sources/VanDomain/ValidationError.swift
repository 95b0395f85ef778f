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

    /// `"<field>: <reason>"`, e.g. `"lat: must be between -90 and 90, got 91.0"`.
    public var description: String { "\(field): \(reason)" }
}
