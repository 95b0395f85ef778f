/// Fails with ``TimedOut`` if `body` has not finished within `seconds` — a guard
/// against a hung test, never a way to wait for something to happen. Waits for an event use
/// 120 s: a full suite of 700 tests on 2 cores once starved a trigger loop's LISTEN start past
/// 30 s (`theServiceWakesOnNotifyAndStopsGracefully`, 2026-11-29), and a hang costs only time.
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
