import Foundation
import VanDomain

/// A person the disabilities office has cleared to book rides.
public struct WhitelistEntry: Sendable, Equatable, Codable {
    /// Who.
    public var netID: NetID
    /// Name as the office has it.
    public var name: String?
    /// Address as the office has it.
    public var email: EmailAddress?
    /// The dispatcher's note, e.g. "broken leg, until cast is off".
    public var note: String?
    /// Last day (inclusive, service time zone) the entry counts; nil for no end.
    public var validUntil: LocalDate?
    /// Who added or last changed it.
    public var addedBy: String
    /// When it was added or last changed.
    public var addedAt: Date

    /// Creates a value.
    public init(
        netID: NetID, name: String? = nil, email: EmailAddress? = nil, note: String? = nil, validUntil: LocalDate? = nil,
        addedBy: String, addedAt: Date
    ) {
        self.netID = netID
        self.name = name
        self.email = email
        self.note = note
        self.validUntil = validUntil
        self.addedBy = addedBy
        self.addedAt = addedAt
    }

    /// Whether the entry still counts on `today`.
    public func isActive(on today: LocalDate) -> Bool {
        validUntil.map { $0 >= today } ?? true
    }

    enum CodingKeys: String, CodingKey {
        case netID = "net_id", name, email, note, validUntil = "valid_until", addedBy = "added_by", addedAt = "added_at"
    }
}

/// Whether a rider may book today, and until when.
public struct Eligibility: Sendable, Equatable {
    /// On the whitelist, not expired.
    public let isEligible: Bool
    /// The entry's last day, if it has one (also set when already expired).
    public let until: LocalDate?

    /// Creates a value.
    public init(isEligible: Bool, until: LocalDate?) {
        self.isEligible = isEligible
        self.until = until
    }
}
