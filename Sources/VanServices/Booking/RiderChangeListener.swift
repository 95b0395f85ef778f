import Foundation
import Logging
import Synchronization
import VanDomain
import VanPostgres

/// Keeps a ``RiderReadCache`` in step with the database: `LISTEN vand_rider_changes` (sql/0025)
/// on a connection and thread of its own, from the first ``start()`` until this is released.
/// A notification drops its rider (`*`: everyone); a lost connection stops the cache until
/// `LISTEN` is in place again, and then drops what it kept.
public final class RiderChangeListener<Value: Sendable>: Sendable {
    /// The channel sql/0025's triggers notify.
    public static var channel: String { "vand_rider_changes" }

    /// The cache kept in step.
    public let cache: RiderReadCache<Value>
    private let configuration: PGConfiguration
    private let logger: Logger
    private let started = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Follows changes for `cache` over a connection made with `configuration`.
    public init(cache: RiderReadCache<Value>, configuration: PGConfiguration, logger: Logger = Logger(label: "vand.read-cache")) {
        self.cache = cache
        self.configuration = configuration
        self.logger = logger
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// Starts listening, once (later calls cost one atomic load). Nothing when the cache is off.
    public func start() {
        guard cache.budget > 0, !started.load(ordering: .relaxed),
              started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        let events = PGListener.events(configuration: configuration, channels: [Self.channel], logger: logger)
        let cache = cache
        let follow = Task {
            for await event in events {
                switch event {
                case .listening: cache.listening()
                case .lost: cache.lost()
                case .notification(let note):
                    if let netID = try? NetID(note.payload) { cache.changed(netID) } else { cache.changedEveryone() }
                }
            }
            cache.lost()
        }
        task.withLock { $0 = follow }
    }
}
