import Foundation
import VanDomain
import VanPostgres
import VanServices

/// The console's will-calls: the board's list of ways back waiting for a rider's call, a ride's
/// will-call on its page, and "She's ready" for a rider who calls by phone
/// (``BookingService/ready(_:netID:actor:now:)``, named as the dispatcher).
extension WebDispatchActions {
    /// One open will-call on the board: the call, its ride there, and the rider's name on file.
    struct OpenWillCall {
        let call: WillCall
        let there: Ride
        let riderName: String?
    }

    /// The will-calls still open whose ride there is picked up before the end of `day`, oldest
    /// ride first (``BookingService/openWillCalls(before:limit:)``), with the riders' names.
    func openWillCalls(through day: LocalDate) async throws -> [OpenWillCall] {
        let open = try await booking.openWillCalls(before: day.interval(in: timeZone).end)
        guard !open.isEmpty else { return [] }
        let ids = "{" + Set(open.map(\.0.netID.rawValue)).sorted().joined(separator: ",") + "}"
        let names: [String: String] = try await pool.withConnection { conn in
            let rows = try conn.query("SELECT net_id, name FROM riders WHERE net_id = ANY(\(ids)::text[]) AND name IS NOT NULL")
            return Dictionary(try rows.map { (try $0.decode(String.self, "net_id"), try $0.decode(String.self, "name")) }) { a, _ in a }
        }
        return open.map { OpenWillCall(call: $0.0, there: $0.1, riderName: names[$0.0.netID.rawValue]) }
    }

    /// Ride `id`'s will-call way back, whatever its state, or nil.
    func willCall(of id: UUID) async throws -> WillCall? {
        try await booking.willCall(of: id)
    }

    /// "She's ready", said by `actor` for the rider of `ride` on the phone: her way back booked
    /// now; throws ``WillCallError``.
    func readyForRider(_ ride: Ride, actor: String) async throws -> ReadyOutcome {
        try await booking.ready(ride.id, netID: nil, actor: actor, now: now)
    }
}
