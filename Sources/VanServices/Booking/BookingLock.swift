import Foundation
import VanPostgres

/// The transaction-scoped advisory locks that serialise every change to the
/// schedule near one time, so the check-then-insert of two bookings (or a
/// booking and a re-timing) cannot interleave. The exclusion constraint on
/// `rides` backs this up for overlaps; the lock also covers the deadhead rule.
enum BookingLock {
    /// Lock namespace ("vand" in ASCII).
    static let namespace: Int32 = 0x7661_6E64
    /// How far around a pickup a change can matter: longer than any trip plus deadhead
    /// plus the suggestion window.
    static let reach: TimeInterval = 6 * 3_600
    /// No trip is assumed longer than this when reading neighbours.
    static let longestTrip: TimeInterval = 4 * 3_600

    /// Locks every UTC day that `[date - reach, date + reach]` touches for each date, in
    /// ascending order (no deadlocks), in one statement.
    /// Two changes within `2 × reach` of each other share a day, so they run one after the other.
    static func lock(_ conn: PGConnection, around dates: [Date]) throws {
        let days = Set(dates.flatMap { date in
            Int32(floor((date.timeIntervalSince1970 - reach) / 86_400))...Int32(floor((date.timeIntervalSince1970 + reach) / 86_400))
        }).sorted()
        guard !days.isEmpty else { return }
        // unnest yields the array's order, so the locks are taken in ascending order.
        let list = "{" + days.map(String.init).joined(separator: ",") + "}"
        try conn.query("SELECT pg_advisory_xact_lock(\(namespace), day) FROM unnest(\(list)::int[]) AS day")
    }
}
