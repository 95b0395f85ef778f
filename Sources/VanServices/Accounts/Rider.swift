import Foundation
import VanDomain

/// A rider account as the dispatcher and the rider see it; the password hash stays in ``RiderStore``.
public struct Rider: Sendable, Equatable {
    /// The login name.
    public var netID: NetID
    /// Display name.
    public var name: String?
    /// Where the dispatcher can call.
    public var phone: PhoneNumber?
    /// Where the rider can be written to.
    public var email: EmailAddress?
    /// True until the rider replaces the temporary password.
    public var mustChangePassword: Bool
    /// When the temporary password stops working (nil once the rider chose their own).
    public var temporaryPasswordExpiresAt: Date?
    /// A disabled rider cannot log in.
    public var disabled: Bool
    /// When the account was created.
    public var createdAt: Date
    /// What the account is for (riders book; drivers run a van's stops).
    public var role: AccountRole

    /// Creates a value.
    public init(
        netID: NetID, name: String? = nil, phone: PhoneNumber? = nil, email: EmailAddress? = nil, mustChangePassword: Bool,
        temporaryPasswordExpiresAt: Date? = nil, disabled: Bool = false, createdAt: Date, role: AccountRole = .rider
    ) {
        self.netID = netID
        self.name = name
        self.phone = phone
        self.email = email
        self.mustChangePassword = mustChangePassword
        self.temporaryPasswordExpiresAt = temporaryPasswordExpiresAt
        self.disabled = disabled
        self.createdAt = createdAt
        self.role = role
    }
}

/// What a login checks: the hash and the flags that may refuse a correct password.
public struct RiderCredentials: Sendable {
    /// The account.
    public let netID: NetID
    /// bcrypt hash of the password.
    let passwordHash: String
    /// True while the password is a temporary one.
    public let mustChangePassword: Bool
    /// When the temporary password stops working.
    public let temporaryPasswordExpiresAt: Date?
    /// Whether the dispatcher disabled the account.
    public let disabled: Bool
}
