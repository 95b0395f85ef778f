import Foundation
import VanDomain

/// Everything about one stretch of time that does not depend on the candidate pickup:
/// service stretches, closure days and van timelines, computed once per query (internal).
struct SchedulingContext: Sendable {
    let estimator: TripEstimator
    /// Merged service stretches overlapping `range`, clipped to it.
    let stretches: [DateInterval]
    /// Closure days touching `range`, earliest first.
    let closures: [(date: LocalDate, interval: DateInterval)]
    /// Timelines of the vans that may take the ride, by ascending van id.
    let timelines: [VanTimeline]

    /// Prepares `range` for `scheduler`: only `vans` are considered, and `excludingRideID` is ignored.
    init(scheduler: Scheduler, range: DateInterval, vans: [Van], rides: [BookedRide], excludingRideID: UUID?) {
        estimator = scheduler.estimator
        let zone = scheduler.hours.timeZone
        stretches = scheduler.hours.openIntervals(from: range.start, to: range.end)
        let clock = ZoneCalendar(timeZone: zone)
        let days = (clock.day(containing: range.start) - 1)...(clock.day(containing: range.end) + 1)
        closures = scheduler.closures
            .filter { days.contains($0.dayNumber) }
            .sorted()
            .map { ($0, $0.interval(in: zone)) }
            .filter { $0.interval.start < range.end && $0.interval.end > range.start }
        let vanIDs = Set(vans.map(\.id))
        var byVan: [Int64: [BookedRide]] = [:]
        for ride in rides where vanIDs.contains(ride.vanID) && ride.id != excludingRideID {
            byVan[ride.vanID, default: []].append(ride)
        }
        timelines = vans.sorted { $0.id < $1.id }.map { VanTimeline(van: $0, rides: byVan[$0.id] ?? []) }
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

    /// The best van for the trip `[p, d]`: least idle gap, then lowest id; or why none fits.
    func evaluate(pickupAt p: Date, dropoffAt d: Date, pickup: Coordinate?, dropoff: Coordinate?) -> Feasibility {
        if let problem = serviceProblem(pickupAt: p, dropoffAt: d) {
            return .infeasible(reason: problem, earlier: nil, later: nil)
        }
        var best: Assignment?
        for timeline in timelines {
            guard let gap = timeline.idleGap(
                pickupAt: p, dropoffAt: d, pickup: pickup, dropoff: dropoff,
                estimator: estimator, cap: Scheduler.idleCap
            ) else { continue }
            if best.map({ gap < $0.idleGap }) ?? true {
                best = Assignment(vanID: timeline.van.id, pickupAt: p, dropoffAt: d, idleGap: gap)
            }
        }
        return best.map { .feasible($0) } ?? .infeasible(reason: .occupied, earlier: nil, later: nil)
    }
}
