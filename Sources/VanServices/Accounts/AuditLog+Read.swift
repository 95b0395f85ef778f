import Foundation
import VanPostgres

extension AuditLog {
    /// The newest entries first (for tests and reports).
    public static func recent(_ connection: PGConnection, limit: Int = 50) throws -> [AuditEntry] {
        try connection.query(
            """
            SELECT actor, action, subject, details::text AS details, at FROM audit_log ORDER BY id DESC LIMIT \(limit)
            """
        ).map { row in
            AuditEntry(
                actor: try row.decode(String.self, "actor"), action: try row.decode(String.self, "action"),
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
