import Foundation
import Synchronization
import VanDomain

/// Riders' upcoming-ride pages as last read from the database, answered again from memory
/// until the database says something they depend on changed: the rider's rides, sessions or
/// account (`NOTIFY vand_rider_changes`, sql/0025), or any place's or van's name.
///
/// An answer from memory is the one the database would give, except for the time a
/// notification takes to arrive (not measured here; it is sent at commit):
/// - only while ``RiderChangeListener`` is listening: before the first `LISTEN` and from a lost
///   connection until the next `LISTEN`, nothing is kept or answered (and all is dropped);
/// - a store that raced a change is refused: ``ticket()`` is taken before the read, and a change
///   to that rider noted after it makes ``store(_:key:value:bytes:validUntil:now:ticket:)`` a no-op;
/// - the session is answered only while the database would not slide its expiry (less than
///   ``SessionStore/touchInterval`` since `last_seen_at`) and before it ends: the check that
///   slides goes to the database, as without the cache;
/// - an upcoming page is answered only before its first ride's pickup (when that ride would
///   leave it), and never past ``maxAge`` (60 s), so a notification lost without the connection
///   noticing costs at most that;
/// - this process's own writes drop their rider at once (``changed(_:)``), so a rider reads
///   what they just wrote on the node that wrote it.
///
/// Memory is bounded by `budget` bytes of values; riders beyond it are dropped.
public final class RiderReadCache<Value: Sendable>: Sendable {
    /// A page within a rider's answers: its size and cursor as the request gave them.
    public struct PageKey: Hashable, Sendable {
        /// The page size asked for.
        public let limit: Int
        /// The cursor asked for (nil: the first page).
        public let after: String?

        /// The key of a page of `limit` rides after `after`.
        public init(limit: Int, after: String?) {
            self.limit = limit
            self.after = after
        }
    }

    /// Taken before a read; a store with it is refused if the rider changed since.
    public struct Ticket: Sendable {
        let stamp: UInt64
    }

    /// What happened to the cache, for watchers (``changes()``).
    public enum Change: Sendable, Hashable {
        /// Listening began: answers may now be kept.
        case listening
        /// Listening stopped: nothing is kept or answered until it starts again.
        case lost
        /// One rider's answers were dropped.
        case rider(NetID)
        /// Every rider's answers were dropped.
        case everyone
    }

    private struct SessionEntry {
        let netID: NetID
        let expiresAt: Date
        let lastSeenAt: Date
    }

    private struct PageEntry {
        let value: Value
        let bytes: Int
        let validUntil: Date?
        let storedAt: Date
    }

    private struct RiderEntry {
        /// The counter when this rider last changed (or the floor when the entry was made).
        var stamp: UInt64
        var sessions: Set<Data> = []
        var pages: [PageKey: PageEntry] = [:]
        var bytes = 0
    }

    private struct State {
        var listening = false
        /// Goes up with every change noted.
        var counter: UInt64 = 0
        /// The stamp of every rider without an entry: raised by dropping everyone, and by
        /// forgetting an entry, to that entry's stamp.
        var floor: UInt64 = 0
        var sessions: [Data: SessionEntry] = [:]
        var riders: [NetID: RiderEntry] = [:]
        var bytes = 0
        var watchers: [UUID: AsyncStream<Change>.Continuation] = [:]

        func stamp(of netID: NetID) -> UInt64 { riders[netID]?.stamp ?? floor }

        mutating func drop(_ netID: NetID) {
            counter += 1
            if let entry = riders[netID] {
                for digest in entry.sessions { sessions[digest] = nil }
                bytes -= entry.bytes
            }
            riders[netID] = RiderEntry(stamp: counter)
        }

        mutating func dropEveryone(listening: Bool) {
            counter += 1
            floor = counter
            riders = [:]
            sessions = [:]
            bytes = 0
            self.listening = listening
        }

        /// Forgets whole riders (not `keeping`) until the values fit `budget`, and riders with
        /// nothing kept once there are more than `maxRiders` of them.
        mutating func shrink(to budget: Int, keeping: NetID, maxRiders: Int) {
            while bytes > budget, let victim = riders.first(where: { $0.key != keeping && $0.value.bytes > 0 })?.key {
                forget(victim)
            }
            if riders.count > maxRiders {
                for (netID, entry) in riders where entry.bytes == 0 && entry.sessions.isEmpty && netID != keeping { forget(netID) }
            }
        }

        private mutating func forget(_ netID: NetID) {
            guard let entry = riders.removeValue(forKey: netID) else { return }
            floor = max(floor, entry.stamp)
            for digest in entry.sessions { sessions[digest] = nil }
            bytes -= entry.bytes
        }
    }

    /// The longest an answer is kept, notified or not.
    public let maxAge: TimeInterval
    /// The most bytes of values kept.
    public let budget: Int
    private let touchInterval: TimeInterval
    private let maxRiders: Int
    private let state = Mutex(State())

    /// A cache of at most `budget` bytes of values (0: off). It keeps nothing until
    /// ``listening()`` is called (``RiderChangeListener`` does).
    public init(budget: Int, maxAge: TimeInterval = 60, touchInterval: TimeInterval = SessionStore.touchInterval, maxRiders: Int = 10_000) {
        self.budget = budget
        self.maxAge = maxAge
        self.touchInterval = touchInterval
        self.maxRiders = maxRiders
    }

    /// The session of the token with SHA-256 `digest` and its rider's page `key`, if both are
    /// kept and still what the database would answer at `now`.
    public func lookup(digest: Data, key: PageKey, now: Date) -> (session: AuthenticatedSession, value: Value)? {
        guard budget > 0 else { return nil }
        return state.withLock { state -> (AuthenticatedSession, Value)? in
            guard state.listening, let session = state.sessions[digest],
                now < session.expiresAt, now < session.lastSeenAt.addingTimeInterval(touchInterval),
                let page = state.riders[session.netID]?.pages[key],
                now < page.storedAt.addingTimeInterval(maxAge), page.validUntil.map({ now < $0 }) ?? true
            else { return nil }
            let authenticated = AuthenticatedSession(
                netID: session.netID, digest: digest, mustChangePassword: false, expiresAt: session.expiresAt, lastSeenAt: session.lastSeenAt
            )
            return (authenticated, page.value)
        }
    }

    /// Take before reading what ``store(_:key:value:bytes:validUntil:now:ticket:)`` will keep.
    public func ticket() -> Ticket {
        state.withLock { Ticket(stamp: $0.counter) }
    }

    /// Keeps `value` (`bytes` long) as `session`'s rider's page `key`, read at `now` after
    /// `ticket` was taken, until `validUntil` (nil: no time of its own). Nothing is kept for a
    /// session that must change its password or is not a rider's, when not listening, or when the rider changed
    /// since `ticket`.
    public func store(_ session: AuthenticatedSession, key: PageKey, value: Value, bytes: Int, validUntil: Date?, now: Date, ticket: Ticket) {
        guard budget > 0, bytes <= budget, !session.mustChangePassword, session.role == .rider else { return }
        state.withLock { state in
            guard state.listening, state.stamp(of: session.netID) <= ticket.stamp else { return }
            var entry = state.riders[session.netID] ?? RiderEntry(stamp: state.floor)
            state.sessions[session.digest] = SessionEntry(netID: session.netID, expiresAt: session.expiresAt, lastSeenAt: session.lastSeenAt)
            entry.sessions.insert(session.digest)
            let old = entry.pages.updateValue(PageEntry(value: value, bytes: bytes, validUntil: validUntil, storedAt: now), forKey: key)
            let grown = bytes - (old?.bytes ?? 0)
            entry.bytes += grown
            state.bytes += grown
            state.riders[session.netID] = entry
            state.shrink(to: budget, keeping: session.netID, maxRiders: maxRiders)
        }
    }

    /// Drops `netID`'s sessions and pages (its rides, sessions or account changed).
    public func changed(_ netID: NetID) {
        record(.rider(netID)) { $0.drop(netID) }
    }

    /// Drops everything (a name every ride shows changed).
    public func changedEveryone() {
        record(.everyone) { $0.dropEveryone(listening: $0.listening) }
    }

    /// Listening began (again): what was kept before may have missed changes, so it is dropped.
    public func listening() {
        record(.listening) { $0.dropEveryone(listening: true) }
    }

    /// Listening stopped: nothing is kept or answered until ``listening()``.
    public func lost() {
        record(.lost) { $0.dropEveryone(listening: false) }
    }

    /// What happens to the cache from now on, until the caller stops iterating.
    public func changes() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        let id = UUID()
        state.withLock { $0.watchers[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    /// How many bytes of values are kept.
    public var bytesKept: Int { state.withLock { $0.bytes } }

    private func record(_ change: Change, _ update: (inout State) -> Void) {
        let watchers = state.withLock { state in
            update(&state)
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield(change) }
    }
}
