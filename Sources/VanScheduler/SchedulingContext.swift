import Foundation
import VanDomain

/// The service calendar around a request: stretches of service and closure days overlapping a
/// range, computed once per query (internal).
struct SchedulingContext: Sendable {
    /// The range the context covers.
    let range: DateInterval
    /// Merged service stretches overlapping `range`, clipped to it.
    let stretches: [DateInterval]
    /// Closure days touching `range`, earliest first.
    let closures: [(date: LocalDate, interval: DateInterval)]

    /// Prepares `range` for `scheduler`.
    init(scheduler: Scheduler, range: DateInterval) {
        self.range = range
        let zone = scheduler.hours.timeZone
        stretches = scheduler.hours.openIntervals(from: range.start, to: range.end)
        let calendar = ZoneCalendar(timeZone: zone)
        let days = (calendar.day(containing: range.start) - 1)...(calendar.day(containing: range.end) + 1)
        closures = scheduler.closures
            .filter { days.contains($0.dayNumber) }
            .sorted()
            .map { ($0, $0.interval(in: zone)) }
            .filter { $0.interval.start < range.end && $0.interval.end > range.start }
    }

    /// Why the trip `[p, d]` cannot run whatever the van (closure first, then hours), or `nil`.
    /// Drop-off exactly at closing time, or exactly at the midnight a closure day starts, is fine.
    func serviceProblem(pickupAt p: Date, dropoffAt d: Date) -> Infeasibility? {
        if let closure = closures.first(where: { p < $0.interval.end && d > $0.interval.start }) {
            return .closed(closure.date)
        }
        guard stretches.contains(where: { $0.start <= p && d <= $0.end }) else { return .outsideServiceHours }
        return nil
    }
}
