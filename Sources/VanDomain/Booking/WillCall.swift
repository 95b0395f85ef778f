import Foundation

/// A way back she will call for ("I'll call when I'm ready"): booked with the ride there, and
/// unscheduled until she, or the dispatcher for her, says she is ready. Then it becomes an
/// on-demand ride from ``pickup`` back to the ride there's pickup, promised within the office's
/// wait (`VAND_WILL_CALL_MAX_WAIT`).
public struct WillCall: Sendable, Hashable {
    /// Where a will-call is in its life: `open → ready | closed`.
    public enum State: String, Sendable, Hashable {
        /// Waiting for her call.
        case open
        /// She called: the way back is booked (``WillCall/readyAt``).
        case ready
        /// Called off with the ride there, or by the office.
        case closed
    }

    /// The ride there, which it belongs to (and is keyed by).
    public var rideID: UUID
    /// Who rides.
    public var netID: NetID
    /// Where the way back starts: the ride there's drop-off, unless she gave another place.
    public var pickup: RideEndpoint
    /// When it was booked.
    public var createdAt: Date
    /// When she said she was ready (and the way back was booked).
    public var readyAt: Date?
    /// Who said so: her net ID, or the dispatcher's name for a call by phone.
    public var readyBy: String?
    /// When it was called off.
    public var closedAt: Date?

    /// A will-call as stored.
    public init(
        rideID: UUID, netID: NetID, pickup: RideEndpoint, createdAt: Date, readyAt: Date? = nil, readyBy: String? = nil, closedAt: Date? = nil
    ) {
        self.rideID = rideID
        self.netID = netID
        self.pickup = pickup
        self.createdAt = createdAt
        self.readyAt = readyAt
        self.readyBy = readyBy
        self.closedAt = closedAt
    }

    /// Open, ready or closed.
    public var state: State {
        if readyAt != nil { return .ready }
        if closedAt != nil { return .closed }
        return .open
    }
}
