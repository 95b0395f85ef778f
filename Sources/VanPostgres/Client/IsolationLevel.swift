/// Transaction isolation levels.
public enum IsolationLevel: String, Sendable {
    /// PostgreSQL's default.
    case readCommitted = "READ COMMITTED"
    /// One snapshot for the whole transaction.
    case repeatableRead = "REPEATABLE READ"
    /// As if transactions ran one at a time; may fail with `40001` and need a retry.
    case serializable = "SERIALIZABLE"
}

extension PGConnection {
    /// Runs `body` between `BEGIN` and `COMMIT`; a thrown error rolls back and is rethrown.
    public func transaction<Value>(isolation: IsolationLevel = .readCommitted, _ body: () throws -> Value) throws -> Value {
        switch isolation {
        case .readCommitted: try execute(simple: "BEGIN")
        case .repeatableRead: try execute(simple: "BEGIN ISOLATION LEVEL REPEATABLE READ")
        case .serializable: try execute(simple: "BEGIN ISOLATION LEVEL SERIALIZABLE")
        }
        let value: Value
        do {
            value = try body()
        } catch {
            try? execute(simple: "ROLLBACK")
            throw error
        }
        try execute(simple: "COMMIT")
        return value
    }
}
