import Foundation

/// A gate a blocking thread (e.g. a pool thread holding a connection) waits at until the
/// test opens it, so a test can hold a resource exactly as long as it needs, without sleeps.
public final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var entered = false, open = false

    /// A closed gate.
    public init() {}

    /// Called on the blocking thread: says it is there, then waits for ``openUp()``.
    public func enterAndWait() {
        condition.lock()
        entered = true
        condition.broadcast()
        while !open { condition.wait() }
        condition.unlock()
    }

    /// Returns once a thread has entered. Waits on a thread of its own, never blocking
    /// the cooperative pool (the task that is to enter may need it).
    public func waitUntilEntered() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.condition.lock()
                while !self.entered { self.condition.wait() }
                self.condition.unlock()
                continuation.resume()
            }
        }
    }

    /// Lets the waiting thread go.
    public func openUp() {
        condition.lock()
        open = true
        condition.broadcast()
        condition.unlock()
    }
}
