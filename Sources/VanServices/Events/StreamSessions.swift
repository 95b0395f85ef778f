import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import VanDomain
import VanPostgres

/// The open notification streams of this process and the sessions they were opened on: a
/// stream ends soon after its session does, whatever ended it, and a rider holds at most
/// ``perRider`` of them (the oldest closes first).
///
/// A session ends by a write (sign-out, a password change elsewhere, a disabled account, a
/// temporary password set), which sql/0025 notifies on `vand_rider_changes` to every node:
/// as a ``RiderChangeFollower`` this checks that rider's streams' sessions then, in one read.
/// It also checks a stream's session once the clock passes the end it last read (it may have
/// slid since), checks every rider's after `LISTEN` is in place again (changes may have been
/// missed), and checks a stream's rider just after it opens (a change may have come between
/// the stream's sign-in check and its opening). Checks run in ``run()`` (a `Service`), never
/// in the listener's thread; nothing is polled per stream.
public final class StreamSessions: RiderChangeFollower, Service, Sendable {
    /// Why a stream was told to end.
    public enum Ending: Sendable, Hashable {
        /// Its session ended (signed out, revoked, expired, the account disabled).
        case sessionEnded
        /// The rider opened more than ``StreamSessions/perRider`` streams; this was the oldest.
        case replaced
    }

    private struct Stream {
        let digest: Data
        var expiresAt: Date
        let sequence: UInt64
        let continuation: AsyncStream<Ending>.Continuation
    }

    private struct State {
        var riders: [NetID: [UUID: Stream]] = [:]
        var due: Set<NetID> = []
        var everyone = false
        var sequence: UInt64 = 0
    }

    /// Most open streams per rider.
    public let perRider: Int
    /// How often the ends of sessions are compared with the clock (a comparison in memory).
    public let tick: Duration
    private let pool: PGPool
    private let clock: any TimeSource
    private let logger: Logger
    private let state = Mutex(State())
    private let wake = WakeSignal()

    /// Streams on `pool`'s sessions, at most `perRider` per rider, their ends read from `clock`.
    public init(
        pool: PGPool, clock: any TimeSource = SystemTimeSource(), perRider: Int = 4, tick: Duration = .seconds(1),
        logger: Logger = Logger(label: "vand.streams")
    ) {
        precondition(perRider >= 1, "a rider needs at least one stream")
        self.pool = pool
        self.clock = clock
        self.perRider = perRider
        self.tick = tick
        self.logger = logger
    }

    /// Registers a stream opened on `session`. The answer yields once, when the stream must
    /// end, and finishes; the registration ends when the caller stops iterating. Opening one
    /// more than ``perRider`` for the rider ends their oldest (``Ending/replaced``).
    public func open(_ session: AuthenticatedSession) -> AsyncStream<Ending> {
        let (ending, continuation) = AsyncStream.makeStream(of: Ending.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID(), netID = session.netID
        let replaced = state.withLock { state -> [AsyncStream<Ending>.Continuation] in
            state.sequence += 1
            var streams = state.riders[netID] ?? [:]
            streams[id] = Stream(digest: session.digest, expiresAt: session.expiresAt, sequence: state.sequence, continuation: continuation)
            var replaced: [AsyncStream<Ending>.Continuation] = []
            while streams.count > perRider, let oldest = streams.min(by: { $0.value.sequence < $1.value.sequence })?.key {
                replaced.append(streams.removeValue(forKey: oldest)!.continuation)
            }
            state.riders[netID] = streams
            state.due.insert(netID)
            return replaced
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id, of: netID) }
        for stream in replaced { stream.end(.replaced) }
        wake.signal()
        return ending
    }

    /// How many streams are open (for tests and metrics).
    public var openCount: Int { state.withLock { $0.riders.values.reduce(0) { $0 + $1.count } } }

    /// How many streams `netID` has open.
    public func openCount(of netID: NetID) -> Int { state.withLock { $0.riders[netID]?.count ?? 0 } }

    // MARK: RiderChangeFollower

    /// Checks every rider's streams: notifications may have been missed.
    public func listening() { markEveryone() }
    /// Nothing to do until ``listening()``.
    public func lost() {}
    /// Checks `netID`'s streams, if any.
    public func changed(_ netID: NetID) {
        let known = state.withLock { state -> Bool in
            guard state.riders[netID] != nil else { return false }
            state.due.insert(netID)
            return true
        }
        if known { wake.signal() }
    }
    /// Names, not sessions, changed: nothing to check.
    public func changedEveryone() {}

    // MARK: Service

    /// Checks what is due until graceful shutdown or cancellation.
    public func run() async throws {
        await withGracefulShutdownHandler {
            await self.loop()
        } onGracefulShutdown: {
            self.wake.signal()
        }
    }

    private func loop() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let now = clock.now
            let (due, sequence) = state.withLock { state -> (Set<NetID>, UInt64) in
                var due = state.due
                state.due = []
                if state.everyone { due.formUnion(state.riders.keys) }
                state.everyone = false
                for (netID, streams) in state.riders where streams.values.contains(where: { $0.expiresAt <= now }) { due.insert(netID) }
                return (due, state.sequence)
            }
            for netID in due {
                do {
                    try await check(netID, now: now, openedBy: sequence)
                } catch {
                    if Task.isCancelled { return }
                    logger.warning("cannot check the sessions of open streams; will retry", metadata: ["error": "\(error)"])
                    _ = state.withLock { $0.due.insert(netID) }
                }
            }
            await wake.wait(upTo: tick)
        }
    }

    /// Reads `netID`'s sessions at `now` and ends their streams opened by `sequence` whose session is gone.
    private func check(_ netID: NetID, now: Date, openedBy sequence: UInt64) async throws {
        let live = try await pool.withConnection { try SessionStore($0).streamable(netID, now: now) }
        let ended = state.withLock { state -> [AsyncStream<Ending>.Continuation] in
            guard var streams = state.riders[netID] else { return [] }
            var ended: [AsyncStream<Ending>.Continuation] = []
            for (id, stream) in streams where stream.sequence <= sequence {
                if let end = live[stream.digest] {
                    streams[id]?.expiresAt = end
                } else {
                    ended.append(stream.continuation)
                    streams[id] = nil
                }
            }
            state.riders[netID] = streams.isEmpty ? nil : streams
            return ended
        }
        if !ended.isEmpty { logger.debug("streams ended with their session", metadata: ["count": "\(ended.count)"]) }
        for stream in ended { stream.end(.sessionEnded) }
    }

    private func markEveryone() {
        state.withLock { $0.everyone = true }
        wake.signal()
    }

    private func remove(_ id: UUID, of netID: NetID) {
        state.withLock { state in
            guard var streams = state.riders[netID], streams.removeValue(forKey: id) != nil else { return }
            state.riders[netID] = streams.isEmpty ? nil : streams
        }
    }
}

extension AsyncStream<StreamSessions.Ending>.Continuation {
    fileprivate func end(_ ending: StreamSessions.Ending) {
        yield(ending)
        finish()
    }
}
