import Foundation
import VanDomain
import VanServices
import VanPostgres

/// The queue's and the alerts' reads and actions: the same services `vanadmin rides approve|reject`
/// and `vanadmin events replay` call, with the dispatcher's name as the actor.
extension WebDispatchActions {
    /// The `page`th page of pending rides (pickups soon, then the oldest bookings), each with
    /// the stops around it on its van's route.
    func queue(page: Int = 1) async throws -> [PendingQueue.Entry] {
        try await PendingQueue(pool: pool, timeZone: timeZone).entries(now: now, page: page)
    }

    /// How many rides wait for a decision.
    func pendingCount() async throws -> Int {
        try await PendingQueue(pool: pool, timeZone: timeZone).count()
    }

    /// The alerts now (a ride pending longer than `VAND_PENDING_ALERT` is one).
    func alerts() async throws -> DispatchAlerts.Snapshot {
        try await DispatchAlerts(pool: pool, timeZone: timeZone).snapshot(now: now, pendingAfter: settings.pendingAlert)
    }

    /// The ride named by `ref`, if any.
    func ride(_ ref: String) async throws -> Ride? {
        try await RideQueries(pool: pool).find(ref)
    }

    /// The rider's name as the console shows it (her net ID when the account has none).
    func riderName(_ netID: NetID) async throws -> String {
        let name = try await pool.withConnection { try RiderStore($0).rider(netID)?.name }
        return name.flatMap { $0.isEmpty ? nil : $0 } ?? netID.rawValue
    }

    /// Approves the ride `ref` as `actor`.
    func approve(_ ref: String, actor: String) async throws -> Ride {
        try await dispatch.approve(ref, actor: actor, now: now)
    }

    /// Rejects the ride `ref` as `actor`, with the reason the rider sees.
    func reject(_ ref: String, reason: String, actor: String) async throws -> Ride {
        try await dispatch.reject(ref, reason: reason, actor: actor, now: now)
    }

    /// Approves every pending ride that still fits, as `vanadmin rides approve --all-feasible`.
    func approveAllFeasible(actor: String) async throws -> DispatchService.BulkResult {
        try await dispatch.approveAllFeasible(on: nil, actor: actor, now: now)
    }

    /// Sends the parked delivery of `eventID` again, as `vanadmin events replay ID`; how many were un-parked.
    func replay(eventID: Int64, actor: String) async throws -> Int {
        try await DeliveryQueue(pool: pool).replay(eventID: eventID, actor: actor)
    }
}
