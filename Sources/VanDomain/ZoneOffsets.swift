import Foundation
import Synchronization

/// A time zone's UTC offsets, remembered per hour of UTC time: `TimeZone.secondsFromGMT(for:)`
/// goes through ICU each time, and a ride page asks it six times per ride.
///
/// An hour is remembered only when the zone has the same offset at its first and its last
/// second, so no hour holding a transition is ever cached: those are asked of the zone every
/// time, and every answer is the zone's own. Shared by every copy of a ``ServiceTime``; safe
/// from any thread.
final class ZoneOffsets: Sendable {
    /// The zone.
    let timeZone: TimeZone
    /// Offset in seconds by hour since 1970 (UTC).
    private let hours = Mutex<[Int: Int]>([:])
    /// Remembered hours at most (a few years of them); past it the memory starts afresh.
    private static let capacity = 65_536

    /// The offsets of `timeZone`.
    init(_ timeZone: TimeZone) { self.timeZone = timeZone }

    /// `timeZone.secondsFromGMT(for: date)`.
    func secondsFromGMT(for date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return timeZone.secondsFromGMT(for: date) }
        let hour = Int(floor(seconds / 3_600))
        if let known = hours.withLock({ $0[hour] }) { return known }
        let start = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(hour * 3_600)))
        let end = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(hour * 3_600 + 3_599)))
        guard start == end else { return timeZone.secondsFromGMT(for: date) }
        hours.withLock { hours in
            if hours.count >= Self.capacity { hours.removeAll(keepingCapacity: true) }
            hours[hour] = start
        }
        return start
    }
}
