import Foundation
import VanDomain
import VanPostgres

/// What the booking keeps of a trip request, as 49 CFR 37.131(b) counts it (``TripRequests``):
/// each refusal with its trip, and, when a booking of the same trip on the same day comes within
/// 10 minutes of a refusal, the link from those refusals to the ride and how far it moved from
/// the time she asked first. Runs inside the booking's transaction, under her lock.
enum Negotiation {
    /// Keeps a refusal of `ride` for the report (a refusal for lack of a van is a denial unless she
    /// books the trip soon after).
    static func recordRefusal(_ ride: NewRide, reason: String, now: Date, _ conn: PGConnection) throws {
        try conn.execute(
            """
            INSERT INTO booking_refusals (net_id, requested_pickup_at, reason, needs_wheelchair, refused_at,
                trip_key, trip_words, promise, standing)
            VALUES (\(ride.netID.rawValue), \(ride.pickupAt), \(reason), \(ride.needsWheelchair), \(now),
                \(TripKey(from: ride.pickup, to: ride.dropoff).rawValue), \(words(ride)), \(ride.promise.rawValue), \(ride.seriesID != nil))
            """)
    }

    /// Her refusals of the last 6 hours that no booking answered yet, by trip: read once per
    /// booking, under her lock and before any van-day is locked, so the booking's locks are not
    /// held a round trip longer for it (most bookings follow no refusal).
    static func recent(_ netID: NetID, now: Date, timeZone: TimeZone, _ conn: PGConnection) throws -> [TripKey: [TripRequests.Refusal]] {
        let rows = try conn.query(
            """
            SELECT id, trip_key, requested_pickup_at, refused_at, reason, standing FROM booking_refusals
            WHERE net_id = \(netID.rawValue) AND answered_by IS NULL AND refused_at <= \(now) AND refused_at > \(now.addingTimeInterval(-6 * 3600))
            """
        ).map { row in
            let asked = try row.decode(Date.self, "requested_pickup_at")
            return TripRequests.Refusal(
                id: try row.decode(Int64.self, "id"), netID: netID.rawValue, trip: TripKey(rawValue: try row.decode(String.self, "trip_key")),
                day: LocalDate(containing: asked, in: timeZone), asked: asked, refusedAt: try row.decode(Date.self, "refused_at"),
                reason: try row.decode(String.self, "reason"), standing: try row.decode(Bool.self, "standing"))
        }
        return Dictionary(grouping: rows, by: \.trip)
    }

    /// Links the refusals `booked` answers among `recent` (``recent(_:now:timeZone:_:)``: her
    /// refusals of the same trip on the same service day, each within 10 minutes of the next) to
    /// it, and records on the ride the time she asked first and the minutes it moved, when it
    /// moved. No statement at all when she was refused nothing of this trip. Returns the minutes
    /// moved (nil when it did not).
    @discardableResult
    static func answer(
        _ ride: NewRide, booked id: UUID, among recent: [TripKey: [TripRequests.Refusal]], now: Date, timeZone: TimeZone, _ conn: PGConnection
    ) throws -> Int? {
        let trip = TripKey(from: ride.pickup, to: ride.dropoff)
        guard let ofTrip = recent[trip] else { return nil }
        let day = LocalDate(containing: ride.pickupAt, in: timeZone)
        let chain = TripRequests.answered(by: now, among: ofTrip.filter { $0.day == day })
        guard let first = chain.first else { return nil }
        let ids = "{" + chain.map { String($0.id) }.joined(separator: ",") + "}"
        try conn.execute("UPDATE booking_refusals SET answered_by = \(id) WHERE id = ANY(\(ids)::bigint[])")
        let minutes = Int((ride.pickupAt.timeIntervalSince(first.asked) / 60).rounded())
        guard minutes != 0 else { return nil }
        try conn.execute("UPDATE rides SET negotiated_from = \(first.asked), negotiated_minutes = \(minutes) WHERE id = \(id)")
        return minutes
    }

    private static func words(_ ride: NewRide) -> String {
        "\(ride.pickup.displayName) → \(ride.dropoff.displayName)"
    }
}
