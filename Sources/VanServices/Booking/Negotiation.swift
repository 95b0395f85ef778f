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

    /// Links the refusals `booked` answers (her refusals of the same trip on the same service day,
    /// each within 10 minutes of the next) to it, and records on the ride the time she asked first
    /// and the minutes it moved, when it moved. Returns the minutes moved (nil when it did not).
    @discardableResult
    static func answer(_ ride: NewRide, booked id: UUID, now: Date, timeZone: TimeZone, _ conn: PGConnection) throws -> Int? {
        let trip = TripKey(from: ride.pickup, to: ride.dropoff)
        let day = LocalDate(containing: ride.pickupAt, in: timeZone)
        let interval = day.interval(in: timeZone)
        let recent = try conn.query(
            """
            SELECT id, requested_pickup_at, refused_at, reason, standing FROM booking_refusals
            WHERE net_id = \(ride.netID.rawValue) AND trip_key = \(trip.rawValue) AND answered_by IS NULL
              AND refused_at <= \(now) AND refused_at > \(now.addingTimeInterval(-6 * 3600))
              AND requested_pickup_at >= \(interval.start) AND requested_pickup_at < \(interval.end)
            """
        ).map {
            TripRequests.Refusal(
                id: try $0.decode(Int64.self, "id"), netID: ride.netID.rawValue, trip: trip, day: day,
                asked: try $0.decode(Date.self, "requested_pickup_at"), refusedAt: try $0.decode(Date.self, "refused_at"),
                reason: try $0.decode(String.self, "reason"), standing: try $0.decode(Bool.self, "standing"))
        }
        let chain = TripRequests.answered(by: now, among: recent)
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
