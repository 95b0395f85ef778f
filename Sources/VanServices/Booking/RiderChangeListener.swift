import Foundation
import Logging
import ServiceLifecycle
import VanDomain
import VanPostgres

/// What follows `NOTIFY vand_rider_changes` (sql/0025) through a ``RiderChangeListener``: the
/// read cache drops a rider's pages, open notification streams check their sessions.
public protocol RiderChangeFollower: Sendable {
    /// `LISTEN` is in place (first, and after every reconnect): changes may have been missed.
    func listening()
    /// The connection was lost: until ``listening()``, changes are not seen.
    func lost()
    /// `netID`'s rides, sessions or account changed.
    func changed(_ netID: NetID)
    /// Something every rider's rides show changed (a place's or a van's name).
    func changedEveryone()
}

extension RiderReadCache: RiderChangeFollower {}

/// `LISTEN vand_rider_changes` (sql/0025) on a connection and thread of its own, for as long
/// as ``run()`` runs (a `Service` in vand's service group), telling each follower. A
/// notification names its rider (`*`: everyone); a lost connection is told as ``RiderChangeFollower/lost()``,
/// and again when the listener ends.
public final class RiderChangeListener: Service, Sendable {
    /// The channel sql/0025's triggers notify.
    public static var channel: String { "vand_rider_changes" }

    /// Who is told, in order.
    public let followers: [any RiderChangeFollower]
    private let configuration: PGConfiguration
    private let logger: Logger

    /// Tells `followers` of the changes seen over a connection made with `configuration`.
    public init(followers: [any RiderChangeFollower], configuration: PGConfiguration, logger: Logger = Logger(label: "vand.rider-changes")) {
        self.followers = followers
        self.configuration = configuration
        self.logger = logger
    }

    /// Listens until cancelled or graceful shutdown.
    public func run() async throws {
        let events = PGListener.events(configuration: configuration, channels: [Self.channel], logger: logger)
        let followers = followers
        for await event in events.cancelOnGracefulShutdown() {
            switch event {
            case .listening: for follower in followers { follower.listening() }
            case .lost: for follower in followers { follower.lost() }
            case .notification(let note):
                if let netID = try? NetID(note.payload) {
                    for follower in followers { follower.changed(netID) }
                } else {
                    for follower in followers { follower.changedEveryone() }
                }
            }
        }
        for follower in followers { follower.lost() }
    }
}
