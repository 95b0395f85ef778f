import Foundation
import VanDomain
import VanServices

/// The reads of booking for a rider who phones: finding her, and the rides booked for her.
/// The booking itself goes through the rider's own form path (``WebBookingFlow``).
extension WebDispatchActions {

    /// Riders whose net ID or name contains `text` (``RiderDirectory/find(_:today:)``).
    func findRiders(_ text: String) async throws -> [RiderDirectory.Listing] {
        try await RiderDirectory(pool: pool).find(text, today: today)
    }

    /// The rider `netID` (never a driver or dispatcher), or nil.
    func rider(_ netID: NetID) async throws -> RiderDirectory.Listing? {
        try await RiderDirectory(pool: pool).rider(netID, today: today)
    }

    /// The ride `id` if it is `netID`'s.
    func ride(_ id: UUID, of netID: NetID) async throws -> Ride? {
        try await RiderRides(pool: pool).find(id, for: netID)
    }
}
