import Foundation
import VanDomain

/// When a van on the road reaches each of its remaining stops: the scheduler's travel model
/// (``TripEstimator``) run forward from where the van was last known to be.
///
/// The van leaves its ``Fix`` (a position and its time, or the last stop it tapped and that tap's
/// time) and drives to each remaining stop in route order: it arrives after the deadhead from the
/// stop before, serves no earlier than the stop opens (at a pickup it waits for the window), and
/// leaves after boarding or alighting. A stop the van is not yet at cannot be reached before `now`,
/// nor can a stop be left before `now`: a van that has not arrived is at least as late as the clock
/// says, and that lateness carries forward through every later stop, less any waiting it absorbs.
/// Pure: no clock, no I/O.
public struct RoadETA: Sendable {
    /// Where the van was last known to be, and when.
    public struct Fix: Hashable, Sendable {
        /// The van's position, or the tapped stop's place (nil: unknown, e.g. a typed address).
        public var location: Coordinate?
        /// When the van was there (the position's time, or the tap's).
        public var at: Date

        /// A fix at `location` at `at`.
        public init(location: Coordinate?, at: Date) {
            self.location = location
            self.at = at
        }
    }

    /// One remaining stop of the van's route.
    public struct Stop: Hashable, Sendable {
        /// The ride the stop belongs to.
        public var rideID: UUID
        /// Pickup or drop-off.
        public var kind: StopKind
        /// Where it is (nil: unknown; the estimator's guesses apply).
        public var location: Coordinate?
        /// Whether the rider takes a wheelchair position (longer boarding and alighting).
        public var wheelchair: Bool
        /// The planner's time for the stop.
        public var plannedAt: Date
        /// The earliest the van serves it (a pickup's window start; nil: any time).
        public var opensAt: Date?
        /// The end of the promised window on this stop, if the promise is on it.
        public var windowEnd: Date?
        /// When the van arrived here, if the driver tapped "arrived".
        public var arrivedAt: Date?

        /// A stop; see the properties.
        public init(
            rideID: UUID, kind: StopKind, location: Coordinate?, wheelchair: Bool = false, plannedAt: Date,
            opensAt: Date? = nil, windowEnd: Date? = nil, arrivedAt: Date? = nil
        ) {
            self.rideID = rideID
            self.kind = kind
            self.location = location
            self.wheelchair = wheelchair
            self.plannedAt = plannedAt
            self.opensAt = opensAt
            self.windowEnd = windowEnd
            self.arrivedAt = arrivedAt
        }
    }

    /// A pickup or a drop-off: the domain's own (one kind of stop everywhere).
    public typealias StopKind = VanDomain.StopKind

    /// One stop's estimate.
    public struct Estimate: Hashable, Sendable {
        /// The stop.
        public var stop: Stop
        /// When the van arrives (or arrived, when it is here).
        public var arrival: Date
        /// When the van leaves it, boarding or alighting done.
        public var departure: Date
        /// Remaining stops before this one on the route.
        public var stopsBefore: Int
        /// Whether the van is at the stop now (the driver tapped "arrived").
        public var here: Bool

        /// When the van is at the stop ready to serve it: the later of its arrival and the stop's
        /// opening (a van early for a pickup window waits at the door for it; drivers pull up at
        /// the window's start). The time a rider is told to be ready for.
        public var ready: Date { max(arrival, stop.opensAt ?? arrival) }

        /// Whether the van arrives before the stop opens and waits for it (``ready`` later than ``arrival``).
        public var waitsForOpening: Bool { ready > arrival }

        /// The arrival against the promised window (``Lateness``); nil with no window on this stop.
        public var lateness: Lateness? {
            stop.windowEnd.map { Lateness(at: arrival, windowEnd: $0) }
        }

        /// Whether the arrival is late by ``Lateness``'s rule (a whole minute after the window's end).
        public var isLate: Bool { lateness?.isLate ?? false }

        /// How far the arrival falls after the planner's time (negative: ahead of plan).
        public var behindPlan: TimeInterval { arrival.timeIntervalSince(stop.plannedAt) }
    }

    /// The travel model.
    public var estimator: TripEstimator

    /// Estimates with `estimator`'s figures.
    public init(estimator: TripEstimator = TripEstimator()) {
        self.estimator = estimator
    }

    /// Every stop's estimate, in route order, for a van last known at `fix`, as of `now`.
    /// Stops the van arrived at keep their arrival time; the first of them after a fix is where
    /// the van is (it drives on from that stop's place).
    public func estimates(from fix: Fix, through stops: [Stop], now: Date) -> [Estimate] {
        var location = fix.location, clock = fix.at
        var result: [Estimate] = []
        result.reserveCapacity(stops.count)
        for (index, stop) in stops.enumerated() {
            let arrival: Date
            if let arrivedAt = stop.arrivedAt {
                arrival = arrivedAt
            } else {
                arrival = max(clock.addingTimeInterval(estimator.deadhead(from: location, to: stop.location)), now)
            }
            let serviceStart = max(arrival, stop.opensAt ?? arrival)
            let departure = max(serviceStart.addingTimeInterval(service(stop)), now)
            result.append(Estimate(stop: stop, arrival: arrival, departure: departure, stopsBefore: index, here: stop.arrivedAt != nil))
            location = stop.location
            clock = departure
        }
        return result
    }

    /// Boarding or alighting time at `stop`, from the estimator.
    public func service(_ stop: Stop) -> TimeInterval {
        switch (stop.kind, stop.wheelchair) {
        case (.pickup, false): estimator.boarding
        case (.pickup, true): estimator.wheelchairBoarding
        case (.dropoff, false): estimator.alighting
        case (.dropoff, true): estimator.wheelchairAlighting
        }
    }
}
