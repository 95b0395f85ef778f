import Foundation
import VanDomain
import VanServices

/// `POST /v1/session` body.
struct LoginRequest: Decodable {
    let netID: String
    let password: String
    enum CodingKeys: String, CodingKey { case netID = "net_id", password }
}

/// `POST /v1/session` answer.
struct LoginResponse: Encodable {
    let token: String
    let tokenType = "Bearer"
    /// In the service zone with its offset, like every time the API shows.
    let expiresAt: String
    let mustChangePassword: Bool
    enum CodingKeys: String, CodingKey { case token, tokenType = "token_type", expiresAt = "expires_at", mustChangePassword = "must_change_password" }
}

/// `POST /v1/password` body.
struct PasswordChangeRequest: Decodable {
    let current: String
    let new: String
}

/// `GET /v1/me` and `PATCH /v1/me` answer.
struct ProfileResponse: Encodable {
    let netID: String
    let name: String?
    let phone: String?
    let email: String?
    let whitelisted: Bool
    let whitelistedUntil: String?
    let mustChangePassword: Bool

    enum CodingKeys: String, CodingKey {
        case netID = "net_id", name, phone, email, whitelisted, whitelistedUntil = "whitelisted_until", mustChangePassword = "must_change_password"
    }

    init(_ profile: AccountService.Profile) {
        netID = profile.rider.netID.rawValue
        name = profile.rider.name
        phone = profile.rider.phone?.rawValue
        email = profile.rider.email?.rawValue
        whitelisted = profile.eligibility.isEligible
        whitelistedUntil = profile.eligibility.until?.description
        mustChangePassword = profile.rider.mustChangePassword
    }

    /// Writes `null` for absent values, so clients see every field.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(netID, forKey: .netID)
        try container.encode(name, forKey: .name)
        try container.encode(phone, forKey: .phone)
        try container.encode(email, forKey: .email)
        try container.encode(whitelisted, forKey: .whitelisted)
        try container.encode(whitelistedUntil, forKey: .whitelistedUntil)
        try container.encode(mustChangePassword, forKey: .mustChangePassword)
    }
}

/// `PATCH /v1/me` body: `phone` and/or `email`; `null` clears one, an absent key leaves it.
/// Every problem is collected, so one answer names every bad field.
struct ProfilePatch: Decodable {
    var phone: PhoneNumber??
    var email: EmailAddress??

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var problems: [ValidationError] = []
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            let value: String?
            if try container.decodeNil(forKey: key) {
                value = nil
            } else if let text = try? container.decode(String.self, forKey: key) {
                value = text
            } else {
                problems.append(ValidationError(field: key.stringValue, reason: "must be a string or null"))
                continue
            }
            do {
                switch key.stringValue {
                case "phone": phone = .some(try value.map { try PhoneNumber($0) })
                case "email": email = .some(try value.map { try EmailAddress($0) })
                default:
                    problems.append(
                        ValidationError(
                            field: key.stringValue, reason: "cannot be changed here; only phone and email can (the office keeps your name)"))
                }
            } catch let error as ValidationError {
                problems.append(error)
            }
        }
        if !problems.isEmpty { throw InvalidFields(problems) }
    }
}
