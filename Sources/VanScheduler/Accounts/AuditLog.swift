import Foundation

/// The one place that writes `audit_log`: every dispatcher action, with who did it.
///
/// Call it on the connection of the transaction that makes the change, so the
/// change and its record commit (or roll back) together.
public struct AuditLog {
    let connection: PostgresConnection

    /// Uses `connection` (normally inside a transaction).
    public init(_ connection: PostgresConnection) { self.connection = connection }

    /// Records `action` on `subject` by `actor` at `at`, with free-form JSON `details`.
    public func record<Details: Codable & Sendable>(actor: String, action: String, subject: String?, details: Details, at: Date) throws {
        try connection.execute("""
            INSERT INTO audit_log (actor, action, subject, details, at)
            VALUES (\(actor), \(action), \(subject), \(PostgresJSON(details)), \(at))
            """)
    }

    /// Records `action` on `subject` by `actor` at `at`, without details.
    public func record(actor: String, action: String, subject: String?, at: Date) throws {
        try record(actor: actor, action: action, subject: subject, details: [String: String](), at: at)
    }

    /// The newest entries first.
    public func recent(limit: Int = 50) throws -> [AuditEntry] {
        try connection.query("""
            SELECT actor, action, subject, details::text AS details, at FROM audit_log ORDER BY id DESC LIMIT \(limit)
            """).map { row in
            AuditEntry(actor: try row.decode(String.self, "actor"), action: try row.decode(String.self, "action"),
                       subject: try row.decode(String?.self, "subject"), details: try row.decode(String.self, "details"),
                       at: try row.decode(Date.self, "at"))
        }
    }
}

/// One row of the audit log.
public struct AuditEntry: Sendable, Equatable {
    /// Who did it (a dispatcher's name or login).
    public let actor: String
    /// What, e.g. `"whitelist.add"`, `"rider.disable"`.
    public let action: String
    /// Usually the net ID acted on.
    public let subject: String?
    /// The details as JSON text.
    public let details: String
    /// When.
    public let at: Date
}
