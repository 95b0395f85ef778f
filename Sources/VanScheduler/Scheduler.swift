import Foundation
import VanDomain

/// The optimistic scheduler: decides whether a requested pickup fits a van and, if not,
/// finds the nearest pickup times that do. Pure and deterministic: no I/O, no clock reads.
///
/// Rules for a trip `[pickup, drop-off]` on a van:
/// - the van is active, and has a wheelchair position if the rider needs one;
/// - the whole trip lies inside one stretch of service (drop-off exactly at closing is fine;
///   pickup at closing is not) and touches no closure day (a whole local day in the service zone);
/// - it overlaps no ride on that van, the previous ride's drop-off plus the deadhead to this
///   pickup is at or before the pickup, and this drop-off plus the deadhead to the next ride's
///   pickup is at or before that pickup.
///
/// Among fitting vans the one leaving the least idle gap wins, then the lowest id.
public struct Scheduler: Hashable, Sendable {
    /// Trip and deadhead durations.
    public var estimator: TripEstimator
    /// When the van runs.
    public var hours: ServiceHours
    /// Days with no service at all, as local dates in `hours.timeZone`.
    public var closures: Set<LocalDate>
    /// How far before and after the requested time to look for suggestions (default 2 h).
    public var searchWindow: TimeInterval
    /// The grid suggestions lie on, aligned to whole multiples since 1970 (default 5 min,
    /// so :00, :05, … in any zone with a whole-quarter-hour offset). No search if not positive.
    public var step: TimeInterval
    /// The ADA negotiation window used to flag suggestions (default 1 h).
    public var adaWindow: TimeInterval

    /// The most idle time one side of a ride counts for when choosing a van (24 h);
    /// a side with no neighbouring ride counts as this.
    public static let idleCap: TimeInterval = 86_400

    /// Creates a scheduler.
    public init(
        estimator: TripEstimator = TripEstimator(),
        hours: ServiceHours,
        closures: Set<LocalDate> = [],
        searchWindow: TimeInterval = 7_200,
        step: TimeInterval = 300,
        adaWindow: TimeInterval = 3_600
    ) {
        self.estimator = estimator
        self.hours = hours
        self.closures = closures
        self.searchWindow = searchWindow
        self.step = step
        self.adaWindow = adaWindow
    }

    /// Whether `request` fits, on which van; if not, why, with the nearest feasible pickup times
    /// strictly before and after it on the `step` grid within `searchWindow` (and within the
    /// request's `notBefore`/`notAfter`). `rides` are the rides holding vans around that time.
    ///
    /// Van problems come first (`.noActiveVan`, then `.noWheelchairVan`, with no suggestions since
    /// no time can work), then `.closed`, `.outsideServiceHours`, and finally `.occupied`.
    public func check(_ request: RideRequest, vans: [Van], rides: [BookedRide]) -> Feasibility {
        let candidates: [Van]
        switch eligibleVans(for: request, in: vans) {
        case .success(let vans): candidates = vans
        case .failure(let failure): return .infeasible(reason: failure.reason, earlier: nil, later: nil)
        }
        let duration = tripDuration(for: request)
        let window = max(0, searchWindow.isFinite ? searchWindow : 0)
        let range = DateInterval(
            start: request.pickupAt.addingTimeInterval(-window),
            end: request.pickupAt.addingTimeInterval(window + duration)
        )
        let context = SchedulingContext(
            scheduler: self, range: range, vans: candidates, rides: rides, excludingRideID: request.excludingRideID
        )
        let result = evaluate(request, at: request.pickupAt, duration: duration, in: context)
        guard case .infeasible(let reason, _, _) = result else { return result }
        return .infeasible(
            reason: reason,
            earlier: nearest(to: request, direction: -1, duration: duration, window: window, in: context),
            later: nearest(to: request, direction: 1, duration: duration, window: window, in: context)
        )
    }

    /// How long `request`'s trip keeps a van busy: the estimate, but at least one second.
    public func tripDuration(for request: RideRequest) -> TimeInterval {
        max(1, estimator.tripDuration(from: request.pickup, to: request.dropoff, wheelchair: request.wheelchair))
    }

    // MARK: Internals

    private struct VanFailure: Error {
        let reason: Infeasibility
    }

    /// The active vans that may take the request (honouring a forced van and wheelchair needs).
    private func eligibleVans(for request: RideRequest, in vans: [Van]) -> Result<[Van], VanFailure> {
        let active = vans.filter { $0.active && (request.vanID == nil || $0.id == request.vanID) }
        guard !active.isEmpty else { return .failure(VanFailure(reason: .noActiveVan)) }
        guard request.wheelchair else { return .success(active) }
        let able = active.filter(\.canCarryWheelchair)
        return able.isEmpty ? .failure(VanFailure(reason: .noWheelchairVan)) : .success(able)
    }

    private func evaluate(_ request: RideRequest, at pickupAt: Date, duration: TimeInterval, in context: SchedulingContext) -> Feasibility {
        context.evaluate(
            pickupAt: pickupAt, dropoffAt: pickupAt.addingTimeInterval(duration),
            pickup: request.pickup, dropoff: request.dropoff
        )
    }

    /// Scans the grid away from the requested time (at most `window / step` candidates) for the
    /// first feasible pickup; `direction` is -1 for earlier, +1 for later.
    private func nearest(
        to request: RideRequest, direction: Double, duration: TimeInterval, window: TimeInterval,
        in context: SchedulingContext
    ) -> Suggestion? {
        guard step.isFinite, step > 0 else { return nil }
        let requested = request.pickupAt.timeIntervalSince1970
        let first = direction < 0 ? (requested / step).rounded(.up) - 1 : (requested / step).rounded(.down) + 1
        var index = first
        while true {
            let time = index * step
            index += direction
            let offset = time - requested
            guard abs(offset) <= window else { return nil }
            let pickupAt = Date(timeIntervalSince1970: time)
            if let notBefore = request.notBefore, pickupAt < notBefore {
                if direction < 0 { return nil } else { continue }
            }
            if let notAfter = request.notAfter, pickupAt > notAfter {
                if direction > 0 { return nil } else { continue }
            }
            guard let found = evaluate(request, at: pickupAt, duration: duration, in: context).assignment else { continue }
            return Suggestion(
                pickupAt: found.pickupAt,
                dropoffAt: found.dropoffAt,
                vanID: found.vanID,
                withinADAWindow: abs(offset) <= adaWindow,
                minutesFromRequested: Int((offset / 60).rounded())
            )
        }
    }
}
