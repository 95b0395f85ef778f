import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import VanPostgres

/// Wakes open notification streams when their rider's inbox grows: `LISTEN vand_notifications`
/// on a connection of its own for as long as ``run()`` runs (a `Service` in vand's service
/// group). A subscriber then re-reads its inbox after its last id.
public final class InboxFeed: Service, Sendable {
    private struct Subscriber {
        let netID: String
        let continuation: AsyncStream<Void>.Continuation
    }

    private let configuration: PGConfiguration
    private let logger: Logger
    private let subscribers = Mutex<[UUID: Subscriber]>([:])

    /// A feed listening with `configuration` (its own connection, not a pool's).
    public init(configuration: PGConfiguration, logger: Logger = Logger(label: "vand.inbox")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Wake-ups for `netID`: one element at once (read what is there), then one whenever their
    /// inbox may have grown (and whenever `LISTEN` is in place again after a lost connection).
    /// Ends when the caller stops iterating.
    public func wakeups(for netID: String) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.yield()
        subscribers.withLock { $0[id] = Subscriber(netID: netID, continuation: continuation) }
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    /// Listens until cancelled or graceful shutdown.
    public func run() async throws {
        let events = PGListener.events(configuration: configuration, channels: ["vand_notifications"], logger: logger)
        for await event in events.cancelOnGracefulShutdown() {
            deliver(event)
        }
    }

    private func deliver(_ event: PGListenEvent) {
        let targets = subscribers.withLock { subscribers in
            subscribers.values.filter { subscriber in
                switch event {
                case .listening: return true  // notifications may have been missed: everyone re-reads
                case .lost: return false  // the next .listening wakes everyone
                case .notification(let note): return note.payload == subscriber.netID
                }
            }.map(\.continuation)
        }
        for continuation in targets { continuation.yield() }
    }
}
