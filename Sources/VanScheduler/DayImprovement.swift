import Foundation
import VanDomain

/// A day's routes improved by the routing engine: stops re-ordered, rides moved between vans,
/// planned times shifted, only inside every rider's promise, and never for a ride under way
/// (planned to start before `lockBefore`).
public struct DayImprovement: Sendable {
    /// The routes before and after.
    public var before: PlanMeasures
    /// After improvement.
    public var after: PlanMeasures
    /// Rides whose van or planned times change: the new van and times, by ride id.
    public var changes: [UUID: (vanID: Int64, stops: PlannedStops)]
}

extension Scheduler {
    /// Improves the routes of `vans` in the stretch of service `stretch`. `progress` is the share of
    /// the caller's time budget used (the engine reads no clock); `seed` makes a run repeatable.
    public func improve(
        stretch: DateInterval, vans: [Van], rides: [BookedRide], lockBefore: Date?,
        seed: UInt64 = 1, maxIterations: Int = .max, progress: @escaping () -> Double
    ) -> DayImprovement {
        let day = RouteDay(
            stretch: stretch, vans: vans, rides: rides, newRide: nil, estimator: estimator, lockBefore: lockBefore, unhurried: unhurriedMargin)
        let problem = day.problem
        let improved = PlanImprover(problem: problem).improve(day.plan, seed: seed, limit: .progress(maxIterations: maxIterations, progress))
        let before = day.measure(day.plan, in: problem), after = day.measure(improved, in: problem)
        guard after.driving < before.driving - 1e-6, improved.unassigned.isEmpty else {
            return DayImprovement(before: before, after: before, changes: [:])
        }
        let old = day.plannedStops(of: day.plan, in: problem)
        var changes: [UUID: (vanID: Int64, stops: PlannedStops)] = [:]
        for (id, planned) in day.plannedStops(of: improved, in: problem) {
            let ride = day.rides.first { $0.id == id }!
            if planned.vanID != ride.vanID || planned.stops.pickupAt != ride.pickupAt || planned.stops.dropoffAt != ride.dropoffAt
                || old[id] == nil
            {
                changes[id] = planned
            }
        }
        return DayImprovement(before: before, after: after, changes: changes)
    }

    /// The stretches of service on local day `date` (each a route per van).
    public func stretches(on date: LocalDate) -> [DateInterval] {
        let day = date.interval(in: hours.timeZone)
        return hours.openIntervals(from: day.start, to: day.end)
    }
}
