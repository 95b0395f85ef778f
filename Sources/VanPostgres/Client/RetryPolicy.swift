/// Retries work that lost a race in the database (`40001` serialization
/// failure, `40P01` deadlock) — the whole transaction, since the server
/// already rolled it back.
public struct RetryPolicy: Sendable {
    /// Total attempts, including the first.
    public var maxAttempts: Int

    /// Creates a policy; 5 attempts is plenty for short transactions.
    public init(maxAttempts: Int = 5) {
        self.maxAttempts = maxAttempts
    }

    /// Runs `work`, again on a retryable PostgreSQL error, up to ``maxAttempts`` times.
    public func run<Value: Sendable>(_ work: () async throws -> Value) async throws -> Value {
        var attempt = 1
        while true {
            do {
                return try await work()
            } catch let error as PGError where error.sqlState?.isRetryable == true && attempt < maxAttempts {
                attempt += 1
                await Task.yield()
            }
        }
    }
}

extension PGPool {
    /// A transaction that is run again when it loses a serialization race.
    @discardableResult
    public func withRetryingTransaction<Value: Sendable>(
        isolation: IsolationLevel = .serializable,
        retry: RetryPolicy = RetryPolicy(),
        _ body: @escaping @Sendable (PGConnection) throws -> Value
    ) async throws -> Value {
        try await retry.run { try await withTransaction(isolation: isolation, body) }
    }
}
