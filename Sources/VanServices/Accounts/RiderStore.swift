import Foundation
import VanDomain
import VanPostgres

/// The one place that knows the `riders` table.
public struct RiderStore {
    let connection: PGConnection

    /// Uses `connection` (inside a transaction when several calls must agree).
    public init(_ connection: PGConnection) { self.connection = connection }

    /// The account for `netID`, if any.
    public func rider(_ netID: NetID) throws -> Rider? {
        try connection.query("\(unescaped: Self.select) WHERE net_id = \(netID)").first.map(Self.rider(from:))
    }

    /// Every account, by net ID.
    public func all() throws -> [Rider] {
        try connection.query("\(unescaped: Self.select) ORDER BY net_id").map(Self.rider(from:))
    }

    /// Every account with `role`, by net ID.
    public func all(_ role: AccountRole) throws -> [Rider] {
        try connection.query("\(unescaped: Self.select) WHERE role = \(role.rawValue) ORDER BY net_id").map(Self.rider(from:))
    }

    /// What a login needs to decide, or nil for an unknown net ID.
    public func credentials(_ netID: NetID) throws -> RiderCredentials? {
        try connection.query(
            """
            SELECT password_hash, must_change_password, temp_password_expires_at, disabled FROM riders WHERE net_id = \(netID)
            """
        ).first.map { row in
            RiderCredentials(
                netID: netID,
                passwordHash: try row.decode(String.self, "password_hash"),
                mustChangePassword: try row.decode(Bool.self, "must_change_password"),
                temporaryPasswordExpiresAt: try row.decode(Date?.self, "temp_password_expires_at"),
                disabled: try row.decode(Bool.self, "disabled")
            )
        }
    }

    /// Creates an account with a temporary password (a rider's unless `role` says otherwise);
    /// false when `netID` already has one.
    public func insert(
        netID: NetID, name: String?, email: EmailAddress?, phone: PhoneNumber? = nil, temporaryPasswordHash: String, expiresAt: Date,
        now: Date, role: AccountRole = .rider
    ) throws -> Bool {
        try connection.execute(
            """
            INSERT INTO riders (net_id, name, email, phone, password_hash, must_change_password, temp_password_expires_at, created_at, role)
            VALUES (\(netID), \(name), \(email), \(phone), \(temporaryPasswordHash), true, \(expiresAt), \(now), \(role.rawValue))
            ON CONFLICT (net_id) DO NOTHING
            """) == 1
    }

    /// Replaces the password with a temporary one the rider must change; false for an unknown net ID.
    public func setTemporaryPassword(_ netID: NetID, hash: String, expiresAt: Date) throws -> Bool {
        try connection.execute(
            """
            UPDATE riders SET password_hash = \(hash), must_change_password = true, temp_password_expires_at = \(expiresAt)
            WHERE net_id = \(netID)
            """) == 1
    }

    /// Stores the rider's own new password and ends the temporary-password state.
    public func setPassword(_ netID: NetID, hash: String) throws -> Bool {
        try connection.execute(
            """
            UPDATE riders SET password_hash = \(hash), must_change_password = false, temp_password_expires_at = NULL
            WHERE net_id = \(netID)
            """) == 1
    }

    /// Replaces the hash `old` by `new`, the same password hashed at the current bcrypt cost,
    /// leaving every other field; false when the password changed meanwhile (no longer `old`).
    public func rehash(_ netID: NetID, from old: String, to new: String) throws -> Bool {
        try connection.execute("UPDATE riders SET password_hash = \(new) WHERE net_id = \(netID) AND password_hash = \(old)") == 1
    }

    /// Disables or re-enables the account; false for an unknown net ID.
    public func setDisabled(_ netID: NetID, _ disabled: Bool) throws -> Bool {
        try connection.execute("UPDATE riders SET disabled = \(disabled) WHERE net_id = \(netID)") == 1
    }

    /// Sets the contact details; nil clears one.
    public func setContact(_ netID: NetID, phone: PhoneNumber?, email: EmailAddress?) throws -> Bool {
        try connection.execute("UPDATE riders SET phone = \(phone), email = \(email) WHERE net_id = \(netID)") == 1
    }

    /// Which of `netIDs` have an account.
    public func existing(_ netIDs: [NetID]) throws -> Set<NetID> {
        guard !netIDs.isEmpty else { return [] }
        // One text[] parameter; net IDs cannot contain the characters array syntax needs quoting for.
        let array = "{" + netIDs.map(\.rawValue).joined(separator: ",") + "}"
        return Set(try connection.query("SELECT net_id FROM riders WHERE net_id = ANY(\(array)::text[])").map { try $0.decode(NetID.self, "net_id") })
    }

    private static let select: StaticString = """
        SELECT net_id, name, phone, email, must_change_password, temp_password_expires_at, disabled, created_at, role FROM riders
        """

    private static func rider(from row: PGRow) throws -> Rider {
        Rider(
            netID: try row.decode(NetID.self, "net_id"),
            name: try row.decode(String?.self, "name"),
            phone: try row.decode(PhoneNumber?.self, "phone"),
            email: try row.decode(EmailAddress?.self, "email"),
            mustChangePassword: try row.decode(Bool.self, "must_change_password"),
            temporaryPasswordExpiresAt: try row.decode(Date?.self, "temp_password_expires_at"),
            disabled: try row.decode(Bool.self, "disabled"),
            createdAt: try row.decode(Date.self, "created_at"),
            role: AccountRole(rawValue: try row.decode(String.self, "role")) ?? .rider
        )
    }
}
