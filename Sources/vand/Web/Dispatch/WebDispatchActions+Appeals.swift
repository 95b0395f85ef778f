import Foundation
import VanDomain
import VanServices

/// The reads and the one write of the appeals page: the open cases, each rider's record, and
/// the office's decision on an appeal (``NoShowStanding``, as `vanadmin appeals decide`).
extension WebDispatchActions {
    /// The cases open today (under notice, on hold, in effect), newest first.
    func openCases() async throws -> [Suspension] {
        try await standing.cases(openOnly: true, now: now)
    }

    /// `netID`'s record and cases now.
    func riderStanding(of netID: String) async throws -> RiderStanding {
        try await standing.standing(netID, now: now)
    }

    /// Decides the appeal of case `id` as `actor`: upheld or overturned, with the reasons the
    /// rider reads. Throws ``StandingError`` (`.unknownCase`, `.notAppealed`, `.text`), changing nothing then.
    func decide(_ id: Int64, uphold: Bool, reason: String, actor: String) async throws -> Suspension {
        try await standing.decide(id, uphold: uphold, reason: reason, actor: actor, now: now)
    }
}
