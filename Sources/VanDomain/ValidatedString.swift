import Foundation

/// A string that exists only after validation (a net ID, an e-mail address, a phone number):
/// it encodes as the plain JSON string and decodes through its validating initializer.
public protocol ValidatedString: Codable, CustomStringConvertible {
    /// The normalized text.
    var rawValue: String { get }
    /// Normalizes and validates `text`, throwing a `ValidationError` that names the field.
    init(validating text: String) throws(ValidationError)
}

extension ValidatedString {
    /// Decodes from a single JSON string, validating it.
    public init(from decoder: any Decoder) throws {
        try self.init(validating: decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as a single JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The normalized text.
    public var description: String { rawValue }
}
