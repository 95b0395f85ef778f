import Foundation

/// A refused ride status change, e.g. approving a ride that was already rejected.
public struct RideTransitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ride's current status.
    public let from: RideStatus
    /// The status that was asked for.
    public let to: RideStatus

    /// Creates the error for the refused move `from` → `to`.
    public init(from: RideStatus, to: RideStatus) {
        self.from = from
        self.to = to
    }

    /// Says why the move is refused and what is possible from the current status, e.g.
    /// `"a rejected ride cannot become approved; only pending rides can be approved or rejected, and a rejected ride is final"`.
    public var description: String {
        let subject = "\(article(from)) \(from.phrase) ride"
        if from == to {
            return "the ride is already \(to.phrase); \(whatIsAllowed(subject: subject))"
        }
        return "\(subject) cannot become \(to.phrase); \(rule(for: to)), and \(whatIsAllowed(subject: subject))"
    }

    private func rule(for target: RideStatus) -> String {
        switch target {
        case .approved, .rejected: "only pending rides can be approved or rejected"
        case .cancelled: "only pending or approved rides can be cancelled"
        case .completed, .noShow: "only approved rides can be marked completed or no-show"
        case .pending: "no ride can go back to pending (book a new ride instead)"
        }
    }

    private func whatIsAllowed(subject: String) -> String {
        let next = from.allowedNextStatuses.map(\.phrase)
        guard let last = next.last else { return "\(subject) is final" }
        let list = next.count == 1 ? last : next.dropLast().joined(separator: ", ") + " or " + last
        return "\(subject) can only become \(list)"
    }

    private func article(_ status: RideStatus) -> String {
        status == .approved ? "an" : "a"
    }
}
