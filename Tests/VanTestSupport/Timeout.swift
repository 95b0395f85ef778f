/// Fails with ``TimedOut`` if `body` has not finished within `seconds` — a guard
/// against a hung test, never a way to wait for something to happen.
public func withTimeout<Value: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut(seconds: seconds)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// A guarded operation took too long.
public struct TimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "timed out after \(seconds) s" }
}
