import Foundation
import VanDomain

/// The scheduler's answer to a request: booked on a van, or refused with the nearest alternatives.
public enum Feasibility: Hashable, Sendable {
    /// The requested time works on this van.
    case feasible(Assignment)
    /// The requested time does not work; `earlier`/`later` are the nearest feasible pickup
    /// times before and after it within the search window, if any.
    case infeasible(reason: Infeasibility, earlier: Suggestion?, later: Suggestion?)

    /// The assignment when feasible.
    public var assignment: Assignment? {
        if case .feasible(let assignment) = self { assignment } else { nil }
    }

    /// Whether the requested time works.
    public var isFeasible: Bool { assignment != nil }

    /// The reason when infeasible.
    public var reason: Infeasibility? {
        if case .infeasible(let reason, _, _) = self { reason } else { nil }
    }

    /// The reason's stable code (``Infeasibility/code``), for answers, counts and records of a
    /// refusal; `occupied` for a feasible answer, which no caller refuses with.
    public var refusalCode: String { (reason ?? .occupied).code }

    /// The alternatives when infeasible, earlier first; empty when feasible or none were found.
    public var suggestions: [Suggestion] {
        guard case .infeasible(_, let earlier, let later) = self else { return [] }
        return [earlier, later].compactMap { $0 }
    }
}
