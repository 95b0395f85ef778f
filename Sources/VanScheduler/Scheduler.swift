import Foundation
import VanDomain

/// The scheduler: decides whether a requested ride fits on a van's route and, if not, finds
/// the nearest times that do. Pure and deterministic: no I/O, no clock reads.
///
/// A van's service stretch is a route of stops (pickups and drop-offs) shared by several riders.
/// A ride fits when the routing engine (``CheapestInsertion`` over ``RouteDay``) can insert its
/// two stops into some van's route so that every promise is kept: each rider's window, each
/// ride-time limit, the seats and wheelchair positions at every stop, service hours and closures.
/// Among the places that fit, the least added driving wins, then the least added waiting.
public struct Scheduler: Hashable, Sendable {
    /// Trip and deadhead durations.
    public var estimator: TripEstimator
    /// When the van runs.
    public var hours: ServiceHours
    /// Days with no service at all, as local dates in `hours.timeZone`.
    public var closures: Set<LocalDate>
    /// How far before and after the requested time to look for suggestions (default 2 h).
    public var searchWindow: TimeInterval
    /// The grid suggestions lie on, aligned to whole multiples since 1970 (default 1 min: the
    /// nearest feasible minute). No search if not positive.
    public var step: TimeInterval
    /// The ADA negotiation window used to flag suggestions (default 1 h).
    public var adaWindow: TimeInterval
    /// The width of a promised window (default 15 min): pickup in `[t, t + W]`, or arrival in `[t − W, t]`.
    public var windowWidth: TimeInterval
    /// How long a ride may take relative to its direct trip.
    public var rideTimeLimit: RideTimeLimit
    /// Rides planned to start within this long of `notBefore` (now) are not moved (default 15 min,
    /// the reminder lead: a rider who has been reminded keeps the time they were told).
    public var lockLead: TimeInterval
    /// How far beyond the suggestion window either side a request's route is planned (default a
    /// day). A shorter reach reads and plans fewer rides; a placement whose changes come within
    /// half the reach of where the route was cut says so (``Assignment/nearRouteEdge``).
    public var routeReach: TimeInterval = 86_400
    /// Plans each van to wait empty rather than with riders aboard (nil: every stop as early as it
    /// can be): a stretch of stops that would end standing at a door for a window starts later,
    /// keeping this much before each of its windows' ends for the road's surprises (the office's
    /// setting, off by default; ``RouteEvaluator/schedule(for:earliest:unhurried:unhurriedFrom:)``).
    /// The driver then serves a pickup at its planned time, not before.
    public var unhurriedMargin: TimeInterval?

    /// The pickups a check of a request asking for `time` may plan around: the suggestion window
    /// and ``routeReach`` either side. Rides picked up in it, and those still aboard at its start,
    /// are the ones to pass to ``check(_:vans:rides:)``.
    public func routeSpan(around time: Date) -> DateInterval {
        let reach = max(0, searchWindow.isFinite ? searchWindow : 0) + routeReach
        return DateInterval(start: time.addingTimeInterval(-reach), end: time.addingTimeInterval(reach))
    }

    /// Creates a scheduler.
    public init(
        estimator: TripEstimator = TripEstimator(),
        hours: ServiceHours,
        closures: Set<LocalDate> = [],
        searchWindow: TimeInterval = 7_200,
        step: TimeInterval = 60,
        adaWindow: TimeInterval = 3_600,
        windowWidth: TimeInterval = 900,
        rideTimeLimit: RideTimeLimit = RideTimeLimit(),
        lockLead: TimeInterval = 900,
        unhurriedMargin: TimeInterval? = nil
    ) {
        self.unhurriedMargin = unhurriedMargin
        self.estimator = estimator
        self.hours = hours
        self.closures = closures
        self.searchWindow = searchWindow
        self.step = step
        self.adaWindow = adaWindow
        self.windowWidth = windowWidth
        self.rideTimeLimit = rideTimeLimit
        self.lockLead = lockLead
    }

    /// Whether `request` fits, on which van and route; if not, why, with the nearest feasible
    /// times strictly before and after it on the `step` grid within `searchWindow` (and within the
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
        let window = max(0, searchWindow.isFinite ? searchWindow : 0)
        let search = Search(
            scheduler: self, request: request, vans: candidates,
            rides: rides.filter { $0.id != request.excludingRideID }, window: window)
        let result = search.evaluate(asked: request.pickupAt)
        guard case .infeasible(let reason, _, _) = result else { return result }
        return .infeasible(reason: reason, earlier: search.nearest(direction: -1), later: search.nearest(direction: 1))
    }

    /// How long `request`'s trip keeps a van busy when ridden alone: the estimate, but at least one second.
    public func tripDuration(for request: RideRequest) -> TimeInterval {
        max(1, estimator.tripDuration(from: request.pickup, to: request.dropoff, wheelchair: request.wheelchair))
    }

    /// The direct ride, pickup to arrival at the drop-off (the trip without alighting).
    public func directRide(for request: RideRequest) -> TimeInterval {
        max(1, tripDuration(for: request) - RouteDay.alighting(estimator, wheelchair: request.wheelchair))
    }

    /// The ride-time limit for `request`, in whole seconds.
    public func maxRideTime(for request: RideRequest) -> TimeInterval {
        rideTimeLimit.limit(direct: directRide(for: request)).rounded(.up)
    }

    /// The local service day a route belongs to: the date its stretch of service starts on.
    public func serviceDay(of stretch: DateInterval) -> LocalDate {
        LocalDate(containing: stretch.start, in: hours.timeZone)
    }

    // MARK: Internals

    private struct VanFailure: Error {
        let reason: Infeasibility
    }

    /// The active vans that may take the request (honouring a forced van and wheelchair needs).
    private func eligibleVans(for request: RideRequest, in vans: [Van]) -> Result<[Van], VanFailure> {
        let active = vans.filter { $0.active && (request.vanID == nil || $0.id == request.vanID) }.sorted { $0.id < $1.id }
        guard !active.isEmpty else { return .failure(VanFailure(reason: .noActiveVan)) }
        guard request.wheelchair else { return .success(active) }
        let able = active.filter(\.canCarryWheelchair)
        return able.isEmpty ? .failure(VanFailure(reason: .noWheelchairVan)) : .success(able)
    }
}

/// One request's search: the service calendar around it and the route problems of the stretches
/// it touches, built once and reused for every candidate time.
private final class Search {
    let scheduler: Scheduler
    let request: RideRequest
    let vans: [Van]
    let rides: [BookedRide]
    let window: TimeInterval
    let context: SchedulingContext
    let direct: TimeInterval
    let alighting: TimeInterval
    let maxRideTime: TimeInterval
    private var days: [Date: RouteDay] = [:]

    init(scheduler: Scheduler, request: RideRequest, vans: [Van], rides: [BookedRide], window: TimeInterval) {
        self.scheduler = scheduler
        self.request = request
        self.vans = vans
        self.rides = rides
        self.window = window
        direct = scheduler.directRide(for: request)
        alighting = RouteDay.alighting(scheduler.estimator, wheelchair: request.wheelchair)
        maxRideTime = scheduler.maxRideTime(for: request)
        context = SchedulingContext(scheduler: scheduler, range: scheduler.routeSpan(around: request.pickupAt))
    }

    /// The request asked for `asked` (a pickup or an arrival): the placement, or why not.
    func evaluate(asked: Date) -> Feasibility {
        let promise = RidePromise(kind: request.promise, asked: asked, width: scheduler.windowWidth)
        // The trip as a rider alone would ride it, as early as the promise allows.
        let start = request.promise == .pickup ? asked : asked.addingTimeInterval(-direct)
        let trip = DateInterval(start: start, duration: direct + alighting)
        if let problem = context.serviceProblem(pickupAt: trip.start, dropoffAt: trip.end) {
            return .infeasible(reason: problem, earlier: nil, later: nil)
        }
        guard let stretch = context.stretches.first(where: { $0.start <= trip.start && trip.end <= $0.end }) else {
            return .infeasible(reason: .outsideServiceHours, earlier: nil, later: nil)
        }
        let day =
            days[stretch.start]
            ?? RouteDay(
                stretch: stretch, vans: vans, rides: rides,
                newRide: .init(pickup: request.pickup, dropoff: request.dropoff, wheelchair: request.wheelchair, companions: request.companions),
                estimator: scheduler.estimator, lockBefore: request.notBefore?.addingTimeInterval(scheduler.lockLead),
                unhurried: scheduler.unhurriedMargin
            )
        days[stretch.start] = day
        guard var assignment = day.placement(promise: promise, maxRideTime: maxRideTime, notBefore: request.notBefore) else {
            return .infeasible(reason: .occupied, earlier: nil, later: nil)
        }
        assignment.serviceDay = scheduler.serviceDay(of: stretch)
        // Where the stretch was cut at the span's edge, rides beyond it were not planned on: a
        // change within half the reach of the cut might push or follow one of them, and a ride
        // first or last on its van's route drives from or to a stop not seen.
        let margin = scheduler.routeReach / 2
        let cutStart = stretch.start <= context.range.start, cutEnd = stretch.end >= context.range.end
        assignment.nearRouteEdge =
            (cutStart && (assignment.opensRoute || assignment.changes.start < stretch.start.addingTimeInterval(margin)))
            || (cutEnd && (assignment.closesRoute || assignment.changes.end > stretch.end.addingTimeInterval(-margin)))
        return .feasible(assignment)
    }

    /// Scans the grid away from the requested time (at most `window / step` candidates) for the
    /// first feasible time; `direction` is -1 for earlier, +1 for later.
    func nearest(direction: Double) -> Suggestion? {
        let step = scheduler.step
        guard step.isFinite, step > 0 else { return nil }
        let requested = request.pickupAt.timeIntervalSince1970
        var index = direction < 0 ? (requested / step).rounded(.up) - 1 : (requested / step).rounded(.down) + 1
        while true {
            let time = index * step
            index += direction
            let offset = time - requested
            guard abs(offset) <= window else { return nil }
            let asked = Date(timeIntervalSince1970: time)
            if let notBefore = request.notBefore, asked < notBefore {
                if direction < 0 { return nil } else { continue }
            }
            if let notAfter = request.notAfter, asked > notAfter {
                if direction > 0 { return nil } else { continue }
            }
            guard let found = evaluate(asked: asked).assignment else { continue }
            return Suggestion(
                pickupAt: found.pickupAt,
                dropoffAt: found.dropoffAt,
                vanID: found.vanID,
                withinADAWindow: abs(offset) <= scheduler.adaWindow,
                minutesFromRequested: Int((offset / 60).rounded()),
                asked: asked,
                promise: request.promise
            )
        }
    }
}
