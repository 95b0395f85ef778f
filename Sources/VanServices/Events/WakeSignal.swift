import Synchronization

/// Wakes one waiting task: ``signal()`` ends the current (or the next) ``wait(upTo:)``.
/// Signals while nobody waits are remembered (as one), so none is lost.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
        var nextID: UInt64 = 0
        /// A timer that fired before its waiter was in place.
        var expired: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Wakes the waiter, or the next one to wait.
    func signal() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.pending = true
            return nil
        }
        continuation?.resume()
    }

    /// Returns at a signal, after `duration`, or when the task is cancelled.
    func wait(upTo duration: Duration) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: duration)
            self?.wake(id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || state.expired == id || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = (id, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            wake(id)
        }
    }

    /// Resumes waiter `id` if it still waits.
    private func wake(_ id: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, waiter.id == id else {
                state.expired = id
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        continuation?.resume()
    }
}
