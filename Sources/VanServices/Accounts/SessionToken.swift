import Crypto
import Foundation

/// A bearer token: 32 random bytes, base64url without padding (43 characters).
///
/// Only ``digest`` (SHA-256) is ever stored, so a copy of the database does not
/// let anyone log in; the raw value exists only in the login response and the client.
public struct SessionToken: Sendable, Hashable {
    /// The token as the client sends it.
    public let rawValue: String

    /// A new random token from the system's cryptographically secure generator.
    public static func generate() -> SessionToken {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices { bytes[index] = generator.next() }
        return SessionToken(uncheckedRawValue: Data(bytes).base64URLEncodedString())
    }

    /// Accepts a token a client sent; nil when it cannot be one of ours.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 43,
            text.utf8.allSatisfy({ byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        rawValue = String(text)
    }

    private init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }

    /// SHA-256 of the token text: the session's key in the database.
    public var digest: Data { Self.digest(of: rawValue) }

    /// SHA-256 of `text`.
    static func digest(of text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }
}

extension SessionToken: CustomStringConvertible {
    /// Never the token itself, so a stray log line cannot leak it.
    public var description: String { "SessionToken(redacted)" }
}
