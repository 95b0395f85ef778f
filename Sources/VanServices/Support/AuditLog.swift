import Foundation
import VanPostgres

/// The one place that writes `audit_log`: every dispatcher action, with who did it.
/// Call it inside the transaction that makes the change, so both land or neither.
public enum AuditLog {
    /// Records `action` on `subject` by `actor` with optional details.
    public static func record(
        _ connection: PGConnection,
        actor: String,
        action: String,
        subject: String?,
        details: [String: String] = [:]
    ) throws {
        try connection.execute(
            """
            INSERT INTO audit_log (actor, action, subject, details)
            VALUES (\(actor), \(action), \(subject), \(PGJSON(details)))
            """)
    }
}
