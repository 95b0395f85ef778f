import Foundation

/// Where a ride is in its life: `pending → approved | rejected`,
/// `pending | approved → cancelled`, `approved → completed | no_show`.
///
/// The one way back: a driver undoing her own `dropped_off` or `no_show` tap within its two
/// minutes puts a `completed` or `no_show` ride back to `approved` (VanServices' `TapService`).
/// No dispatcher command and no other path does; ``canTransition(to:)`` keeps them final.
public enum RideStatus: String, Codable, Sendable, CaseIterable {
    /// Requested, waiting for the dispatcher; already holds its van slot.
    case pending
    /// Accepted by the dispatcher; holds its van slot.
    case approved
    /// Refused by the dispatcher. Final.
    case rejected
    /// Called off by the rider or the dispatcher. Final.
    case cancelled
    /// The rider was dropped off. Final (but for the driver's undo within two minutes).
    case completed
    /// The rider was not at the pickup. Final (but for the driver's undo within two minutes).
    case noShow = "no_show"

    /// Whether a ride in this status occupies its van, so no one else can book that slot.
    /// The database says the same with `ride_holds_van(status)` (sql/0008); a test keeps the two equal.
    public var holdsVan: Bool { self == .pending || self == .approved }

    /// Whether no further transition is possible.
    public var isFinal: Bool { Self.allowed[self, default: []].isEmpty }

    /// The statuses a ride in this status may move to, in lifecycle order.
    public var allowedNextStatuses: [RideStatus] {
        Self.allCases.filter { Self.allowed[self, default: []].contains($0) }
    }

    /// Whether a ride may move from this status to `next`. Staying put is not a transition.
    public func canTransition(to next: RideStatus) -> Bool {
        Self.allowed[self, default: []].contains(next)
    }

    /// Returns `next` if the move is allowed.
    /// - Throws: `RideTransitionError` explaining what is allowed instead.
    public func transition(to next: RideStatus) throws(RideTransitionError) -> RideStatus {
        guard canTransition(to: next) else { throw RideTransitionError(from: self, to: next) }
        return next
    }

    /// Lower-case words for messages, e.g. `"no-show"`.
    var phrase: String {
        switch self {
        case .noShow: "no-show"
        default: rawValue
        }
    }

    /// Whether an ended ride may be put back to `next` by the driver's undo of the tap that ended
    /// it (a no-show or a drop-off undone within the undo window returns it to approved). The
    /// one way back from an ended status; no transition (``canTransition(to:)``) takes it.
    public func canBeRestored(to next: RideStatus) -> Bool {
        Self.restorable[self, default: []].contains(next)
    }

    private static let restorable: [RideStatus: Set<RideStatus>] = [
        .noShow: [.approved],
        .completed: [.approved],
    ]

    private static let allowed: [RideStatus: Set<RideStatus>] = [
        .pending: [.approved, .rejected, .cancelled],
        .approved: [.cancelled, .completed, .noShow],
    ]
}
