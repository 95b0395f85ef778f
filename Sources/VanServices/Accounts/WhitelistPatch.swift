import Foundation
import VanDomain

/// A change to one whitelist entry. For each field, nil leaves the current value
/// and `.some(nil)` clears it, so `whitelist add` can touch only the options given
/// and an import only the columns its file has.
public struct WhitelistPatch: Sendable, Equatable {
    /// Whose entry.
    public var netID: NetID
    /// New name, if changing.
    public var name: String??
    /// New e-mail, if changing.
    public var email: EmailAddress??
    /// New note, if changing.
    public var note: String??
    /// New last day, if changing.
    public var validUntil: LocalDate??

    /// Creates a patch.
    public init(netID: NetID, name: String?? = nil, email: EmailAddress?? = nil, note: String?? = nil, validUntil: LocalDate?? = nil) {
        self.netID = netID
        self.name = name
        self.email = email
        self.note = note
        self.validUntil = validUntil
    }

    /// The entry after the patch; `existing` nil means a new entry.
    func applied(to existing: WhitelistEntry?, actor: String, now: Date) -> WhitelistEntry {
        WhitelistEntry(
            netID: netID,
            name: name ?? existing?.name,
            email: email ?? existing?.email,
            note: note ?? existing?.note,
            validUntil: validUntil ?? existing?.validUntil,
            addedBy: actor,
            addedAt: now
        )
    }
}

extension WhitelistEntry {
    /// The entry's data for the audit log.
    var auditDetails: [String: String] {
        var details: [String: String] = [:]
        details["name"] = name
        details["email"] = email?.rawValue
        details["note"] = note
        details["valid_until"] = validUntil?.description
        return details
    }

    /// Same person data (who changed it and when aside).
    func sameData(as other: WhitelistEntry) -> Bool {
        netID == other.netID && name == other.name && email == other.email && note == other.note && validUntil == other.validUntil
    }
}
