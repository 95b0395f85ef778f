import Synchronization

/// `operation` did not finish within its deadline.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    /// The deadline that passed.
    public let timeout: Duration
    public var description: String { "no answer within \(timeout)" }
}

/// Returns what `operation` returns, or throws ``DeadlineExceeded`` once `timeout` has
/// passed — without waiting for `operation` to notice. Unlike a task group, which waits
/// for every child, this abandons an operation stuck where cancellation cannot reach
/// (a blocking call on another thread); it is cancelled and left to finish on its own.
/// Use it only for operations that are bounded by something else and safe to abandon.
public func withDeadline<Value: Sendable>(
    _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let race = Race<Value>()
    defer { race.cancelAll() }
    return try await withCheckedThrowingContinuation { continuation in
        race.start(
            continuation,
            tasks: [
                Task {
                    do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
                },
                Task {
                    do { try await Task.sleep(for: timeout) } catch { return }
                    race.finish(.failure(DeadlineExceeded(timeout: timeout)))
                },
            ])
    }
}

/// Whichever finishes first resumes the caller; the other is cancelled.
private final class Race<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, any Error>?
        var tasks: [Task<Void, Never>] = []
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<Value, any Error>, tasks: [Task<Void, Never>]) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            state.tasks = tasks
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func finish(_ result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard let continuation = state.continuation.take() else {
                // Finished before start() stored the continuation: keep the first result for it.
                if state.early == nil && state.tasks.isEmpty { state.early = result }
                return nil
            }
            return continuation
        }
        continuation?.resume(with: result)
    }

    func cancelAll() {
        for task in state.withLock({ $0.tasks }) { task.cancel() }
    }
}
