import Crypto
import Foundation

/// The webhook signature: `X-Vand-Signature: sha256=<hex>` where hex is
/// HMAC-SHA256(secret, "<X-Vand-Timestamp>.<body>").
public enum WebhookSignature {
    /// The header value for `body` sent at `timestamp` (Unix seconds).
    public static func sign(body: some DataProtocol, timestamp: Int, secret: String) -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(contentsOf: body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `signature` is right for `body` and `timestamp` (compared in constant time).
    public static func verify(signature: String, body: some DataProtocol, timestamp: Int, secret: String) -> Bool {
        let expected = Array(sign(body: body, timestamp: timestamp, secret: secret).utf8)
        let given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
