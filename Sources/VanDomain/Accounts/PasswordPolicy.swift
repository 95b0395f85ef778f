import Foundation

/// What a rider's own password must satisfy.
///
/// bcrypt reads only the first 72 bytes of a password, so a longer one would
/// silently be cut; we refuse it instead of pretending the rest counts.
public enum PasswordPolicy {
    /// Fewest characters accepted.
    public static let minCharacters = 10
    /// Most UTF-8 bytes accepted (bcrypt's limit).
    public static let maxBytes = 72

    /// Whether bcrypt can check `password` whole: at most ``maxBytes`` UTF-8 bytes. A longer
    /// guess never matches, or a 72-byte password would accept any suffix (bcrypt reads 72 bytes).
    public static func isCheckable(_ password: String) -> Bool {
        password.utf8.count <= maxBytes
    }

    /// Checks a new password for `netID`.
    /// - Throws: `ValidationError` for `field` saying what to change.
    public static func check(_ password: String, netID: NetID, field: String = "new") throws(ValidationError) {
        let characters = password.count
        guard characters >= minCharacters else {
            throw ValidationError(field: field, reason: "must be at least \(minCharacters) characters long, got \(characters)")
        }
        let bytes = password.utf8.count
        guard bytes <= maxBytes else {
            throw ValidationError(field: field, reason: "must be at most \(maxBytes) bytes long (UTF-8), got \(bytes); choose a shorter passphrase")
        }
        guard !password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError(field: field, reason: "must not contain control characters (tabs, line breaks, NUL)")
        }
        let folded = password.trimmingCharacters(in: .whitespaces).lowercased()
        guard folded != netID.rawValue else {
            throw ValidationError(field: field, reason: "must not be your net ID")
        }
    }
}
