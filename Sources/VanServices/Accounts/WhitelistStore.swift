import Foundation
import VanDomain
import VanPostgres

/// The one place that knows the `whitelist` table.
public struct WhitelistStore {
    let connection: PGConnection

    /// Uses `connection` (inside a transaction when several calls must agree).
    public init(_ connection: PGConnection) { self.connection = connection }

    /// The entry for `netID`, if any (expired or not).
    public func entry(_ netID: NetID) throws -> WhitelistEntry? {
        // Every booking checks it: prepared once per connection.
        try connection.query(("\(unescaped: Self.select) WHERE net_id = \(netID)" as SQLQuery).prepared()).first.map(Self.entry(from:))
    }

    /// Every entry, by net ID.
    public func all() throws -> [WhitelistEntry] {
        try connection.query("\(unescaped: Self.select) ORDER BY net_id").map(Self.entry(from:))
    }

    /// Whether `netID` may book on `today` (service time zone).
    public func eligibility(_ netID: NetID, today: LocalDate) throws -> Eligibility {
        guard let entry = try entry(netID) else { return Eligibility(isEligible: false, until: nil) }
        return Eligibility(isEligible: entry.isActive(on: today), until: entry.validUntil)
    }

    /// Inserts or replaces the entry for `entry.netID`.
    public func upsert(_ entry: WhitelistEntry) throws {
        try connection.execute(
            """
            INSERT INTO whitelist (net_id, name, email, note, valid_until, added_by, added_at)
            VALUES (\(entry.netID), \(entry.name), \(entry.email), \(entry.note), \(entry.validUntil), \(entry.addedBy), \(entry.addedAt))
            ON CONFLICT (net_id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, note = EXCLUDED.note,
                valid_until = EXCLUDED.valid_until, added_by = EXCLUDED.added_by, added_at = EXCLUDED.added_at
            """)
    }

    /// Deletes the entry; false when there was none.
    @discardableResult
    public func remove(_ netID: NetID) throws -> Bool {
        try connection.execute("DELETE FROM whitelist WHERE net_id = \(netID)") == 1
    }

    /// Blocks other writers of the whitelist until the transaction ends, so a
    /// read-compare-write (an import) sees a list nobody changes underneath it.
    public func lockForUpdate() throws {
        try connection.execute("LOCK TABLE whitelist IN SHARE ROW EXCLUSIVE MODE")
    }

    private static let select: StaticString = "SELECT net_id, name, email, note, valid_until, added_by, added_at FROM whitelist"

    private static func entry(from row: PGRow) throws -> WhitelistEntry {
        WhitelistEntry(
            netID: try row.decode(NetID.self, "net_id"),
            name: try row.decode(String?.self, "name"),
            email: try row.decode(EmailAddress?.self, "email"),
            note: try row.decode(String?.self, "note"),
            validUntil: try row.decode(LocalDate?.self, "valid_until"),
            addedBy: try row.decode(String.self, "added_by"),
            addedAt: try row.decode(Date.self, "added_at")
        )
    }
}
