import Foundation
import VanDomain
import VanServices

/// Her will-call ways back ("I'll call when I'm ready"): read on her ride's page, and called for
/// with "I'm ready" (``BookingService/ready(_:netID:actor:now:)``).
extension WebRiderActions {
    /// The will-call way back of her ride `id`, if it was booked with one.
    func willCall(of id: UUID, for netID: NetID) async throws -> WillCall? {
        try await booking.willCall(of: id, netID: netID)
    }

    /// "I'm ready": books the way back of her ride `id` now; throws ``WillCallError``.
    func ready(_ id: UUID, for netID: NetID) async throws -> ReadyOutcome {
        try await booking.ready(id, netID: netID, actor: netID.rawValue, now: now)
    }
}
