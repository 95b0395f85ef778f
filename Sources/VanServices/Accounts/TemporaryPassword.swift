/// Random temporary passwords for invitations and resets.
///
/// Four groups of four characters from an alphabet without look-alikes
/// (no 0/o, 1/l/i), e.g. `"k7mp-x3qd-9wzr-h2fe"`: about 79 bits, easy to read
/// out over the phone, and at 19 characters valid under ``VanDomain/PasswordPolicy``.
public enum TemporaryPassword {
    private static let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// A new password from the system's cryptographically secure generator.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var groups: [String] = []
        for _ in 0..<4 {
            groups.append(String((0..<4).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        return groups.joined(separator: "-")
    }
}
