import Foundation
import Logging
import Synchronization
import VanPostgres

/// Wakes open notification streams when their rider's inbox grows. One `LISTEN
/// vand_notifications` connection per process, opened with the first subscriber and
/// closed after the last; a subscriber then re-reads its inbox after its last id.
public final class InboxFeed: Sendable {
    private struct Subscriber {
        let netID: String
        let continuation: AsyncStream<Void>.Continuation
    }

    private struct State {
        var subscribers: [UUID: Subscriber] = [:]
        var listener: Task<Void, Never>?
    }

    private let configuration: PGConfiguration
    private let logger: Logger
    private let state = Mutex(State())

    /// A feed listening with `configuration` (its own connection, not a pool's).
    public init(configuration: PGConfiguration, logger: Logger = Logger(label: "vand.inbox")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Wake-ups for `netID`: one element at once (read what is there), then one
    /// whenever their inbox may have grown. Ends when the caller stops iterating.
    public func wakeups(for netID: String) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.yield()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        let start = state.withLock { state -> Bool in
            state.subscribers[id] = Subscriber(netID: netID, continuation: continuation)
            return state.listener == nil
        }
        if start { startListening() }
        return stream
    }

    private func startListening() {
        let events = PGListener.events(configuration: configuration, channels: ["vand_notifications"], logger: logger)
        let task = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                self.deliver(event)
            }
        }
        let extra = state.withLock { state -> Task<Void, Never>? in
            if state.listener != nil { return task }
            state.listener = task
            return nil
        }
        extra?.cancel()
    }

    private func deliver(_ event: PGListenEvent) {
        let targets = state.withLock { state in
            state.subscribers.values.filter { subscriber in
                switch event {
                case .listening: return true  // notifications may have been missed: everyone re-reads
                case .lost: return false  // the next .listening wakes everyone
                case .notification(let note): return note.payload == subscriber.netID
                }
            }.map(\.continuation)
        }
        for continuation in targets { continuation.yield() }
    }

    private func remove(_ id: UUID) {
        let stop = state.withLock { state -> Task<Void, Never>? in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return nil }
            defer { state.listener = nil }
            return state.listener
        }
        stop?.cancel()
    }
}
