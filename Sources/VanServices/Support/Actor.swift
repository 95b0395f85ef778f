import VanPostgres
/// Names who is acting for the rest of the current transaction, so the ride event
/// triggers record a dispatcher or rider instead of the database role.
enum TransactionActor {
    /// `set_config('vand.actor', actor, true)`: local to the transaction.
    static func set(_ actor: String, _ conn: PGConnection) throws {
        try conn.query(("SELECT set_config('vand.actor', \(actor), true)" as SQLQuery).prepared())
    }
}
