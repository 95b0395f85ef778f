import Logging
import NIOPosix
import Synchronization

/// A fixed-size pool of libpq connections. Work runs on the pool's own
/// threads, never on an event loop or Swift's cooperative pool, so blocking
/// libpq calls cannot starve the server.
///
/// Closures passed to ``withConnection(_:)`` and ``withTransaction(isolation:_:)``
/// are synchronous on purpose: a connection is held only while its thread runs
/// SQL, never across an `await`.
public final class PGPool: Sendable {
    /// The configuration new connections use.
    public let configuration: PGConfiguration
    /// The most connections open at once.
    public let size: Int
    /// How long a caller waits for a free connection before ``PGError/Kind/timedOut`` (nil: forever).
    public let acquireTimeout: Duration?
    private let threads: NIOThreadPool
    private let logger: Logger
    private let state: Mutex<State>

    /// What a caller is allowed to use: an idle connection, or a slot to open one.
    private enum Grant: Sendable {
        case connection(PGConnection)
        case create
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Grant, any Error>
    }

    private struct State {
        var idle: [PGConnection] = []
        var open = 0
        var leased = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var closed = false
    }

    /// What ran on the pool thread: the connection to give back (nil if it never opened) and the outcome.
    private struct Outcome<Value: Sendable>: Sendable {
        let connection: PGConnection?
        let result: Result<Value, any Error>
    }

    /// Creates a pool of at most `size` connections; they open lazily. A caller waits at most
    /// `acquireTimeout` for one (nil: as long as it takes).
    public init(
        configuration: PGConfiguration, size: Int = 8, acquireTimeout: Duration? = nil, logger: Logger = Logger(label: "vand.postgres")
    ) {
        precondition(size > 0, "a pool needs at least one connection")
        self.configuration = configuration
        self.size = size
        self.acquireTimeout = acquireTimeout
        self.logger = logger
        self.threads = NIOThreadPool(numberOfThreads: size)
        self.state = Mutex(State())
        threads.start()
    }

    /// Connections currently lent out (for metrics).
    public var inUse: Int { state.withLock { $0.leased } }

    /// Connections currently open, idle or lent.
    public var openCount: Int { state.withLock { $0.open } }

    /// Runs `body` with a connection on a pool thread. A connection that broke
    /// (or was left inside a transaction) is closed and replaced, never reused; an idle one
    /// is checked before it is lent (``PGConnection/isAlive(timeout:)``) and replaced if the
    /// server has gone away meanwhile (a restart, a failover), so the caller never sees it.
    ///
    /// Waits at most `acquireTimeout` (default: the pool's) for a free connection, then
    /// throws ``PGError/Kind/timedOut``.
    @discardableResult
    public func withConnection<Value: Sendable>(
        acquireTimeout: Duration? = nil,
        _ body: @escaping @Sendable (PGConnection) throws -> Value
    ) async throws -> Value {
        let grant = try await acquire(timeout: acquireTimeout ?? self.acquireTimeout)
        let outcome: Outcome<Value>
        do {
            outcome = try await threads.runIfActive { [configuration, logger] in
                let connection: PGConnection
                switch grant {
                case .connection(let existing) where existing.isAlive():
                    connection = existing
                case .connection(let dead):
                    logger.notice("replacing a pooled PostgreSQL connection the server closed (restart or failover?)")
                    dead.close()
                    do {
                        connection = try PGConnection(configuration: configuration)
                    } catch {
                        return Outcome(connection: nil, result: .failure(error))
                    }
                case .create:
                    do {
                        connection = try PGConnection(configuration: configuration)
                    } catch {
                        return Outcome(connection: nil, result: .failure(error))
                    }
                }
                return Outcome(connection: connection, result: Result { try body(connection) })
            }
        } catch {
            // The thread pool refused the work (task cancelled or pool shut down).
            release(grant)
            throw error
        }
        if let connection = outcome.connection {
            release(.connection(connection))
        } else {
            release(.create)
        }
        return try outcome.result.get()
    }

    /// Runs `body` inside `BEGIN … COMMIT` on one connection; any error rolls back.
    @discardableResult
    public func withTransaction<Value: Sendable>(
        isolation: IsolationLevel = .readCommitted,
        _ body: @escaping @Sendable (PGConnection) throws -> Value
    ) async throws -> Value {
        try await withConnection { connection in
            try connection.transaction(isolation: isolation) { try body(connection) }
        }
    }

    /// Closes idle connections and refuses further work. Waiting callers get ``PGError/Kind/poolClosed``.
    public func shutdown() async {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer { state.idle = []; state.waiters = [] }
            state.open -= state.idle.count
            return (state.idle, state.waiters)
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: PGError(kind: .poolClosed, message: "shutting down"))
        }
        for connection in idle { connection.close() }
        try? await threads.shutdownGracefully()
    }

    // MARK: - Lending

    private func acquire(timeout: Duration?) async throws -> Grant {
        enum Decision { case granted(Grant), wait(UInt64), closed }
        let waiterID = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        // Only a caller that has to wait gets a timer; the common case costs nothing extra.
        let timer = TimerBox()
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Grant, any Error>) in
                let decision = state.withLock { state -> Decision in
                    if state.closed { return .closed }
                    if Task.isCancelled { return .wait(0) }
                    if let connection = state.idle.popLast() {
                        state.leased += 1
                        return .granted(.connection(connection))
                    }
                    if state.open < size {
                        state.open += 1
                        state.leased += 1
                        return .granted(.create)
                    }
                    state.waiters.append(Waiter(id: waiterID, continuation: continuation))
                    return .wait(waiterID)
                }
                switch decision {
                case .granted(let grant): continuation.resume(returning: grant)
                case .closed: continuation.resume(throwing: PGError(kind: .poolClosed, message: "no new work accepted"))
                case .wait(0): continuation.resume(throwing: CancellationError())
                case .wait(let id):
                    if let timeout {
                        timer.start {
                            do { try await Task.sleep(for: timeout) } catch { return }
                            self.expire(waiterID: id, after: timeout)
                        }
                    }
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == waiterID }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Ends a wait that outlived its deadline (if it is still waiting).
    private func expire(waiterID: UInt64, after timeout: Duration) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == waiterID }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(
            throwing: PGError(
                kind: .timedOut, message: "no free connection within \(timeout) (all \(size) busy; is the server slow or frozen?)"
            ))
    }

    /// Gives a grant back: a healthy connection goes to the next waiter or the idle list;
    /// a broken one (or an unused create slot) frees its slot for a fresh connection.
    private func release(_ grant: Grant) {
        var healthy: PGConnection?
        if case .connection(let connection) = grant {
            if connection.isHealthy {
                healthy = connection
            } else {
                logger.warning("dropping a broken PostgreSQL connection; the next caller gets a new one")
                connection.close()
            }
        }
        let (handOff, closeNow) = state.withLock { state -> ((Waiter, Grant)?, PGConnection?) in
            state.leased -= 1
            if state.closed {
                state.open -= 1
                return (nil, healthy)
            }
            if !state.waiters.isEmpty {
                state.leased += 1
                // A healthy connection goes straight to the next waiter; otherwise the slot does.
                return ((state.waiters.removeFirst(), healthy.map(Grant.connection) ?? .create), nil)
            }
            if let healthy {
                state.idle.append(healthy)
            } else {
                state.open -= 1
            }
            return (nil, nil)
        }
        closeNow?.close()
        if let (waiter, grant) = handOff { waiter.continuation.resume(returning: grant) }
    }
}

/// The deadline task of one waiting caller, cancelled once the caller is served.
private final class TimerBox: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLock { $0 = Task(operation: body) }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
