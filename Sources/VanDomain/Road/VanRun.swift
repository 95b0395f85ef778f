import Foundation

/// One van's run over a span (a service day, or a shift's run past midnight): its stops in
/// ``RunOrder`` as planned, each with its promise, its planned time and what the driver tapped
/// there. The one road model: the ETAs, the day board, the map and `vanadmin vans status` read
/// their van's stops from it (``RoadRuns`` reads it, in VanServices), and judge them by
/// ``Lateness``.
public struct VanRun: Sendable, Hashable {
    /// One ride of the run, as its stops need it.
    public struct Ride: Sendable, Hashable {
        /// The ride's id.
        public var id: UUID
        /// Its reference.
        public var ref: RideRef
        /// The rider's net ID.
        public var netID: String
        /// Its status.
        public var status: RideStatus
        /// What the rider was promised.
        public var promise: RidePromise
        /// The planned pickup.
        public var pickupAt: Date
        /// The planned drop-off (as stored: see ``RunOrder/plannedDropoff(pickupAt:dropoffAt:)``).
        public var dropoffAt: Date
        /// Where the pickup is, when known.
        public var pickup: Coordinate?
        /// Where the drop-off is, when known.
        public var dropoff: Coordinate?
        /// Whether the rider uses a wheelchair.
        public var wheelchair: Bool
        /// Companions travelling with her.
        public var companions: Int
        /// Whether the rider has had her reminder before pickup.
        public var reminded: Bool

        /// Creates a value.
        public init(
            id: UUID, ref: RideRef, netID: String, status: RideStatus, promise: RidePromise, pickupAt: Date, dropoffAt: Date,
            pickup: Coordinate?, dropoff: Coordinate?, wheelchair: Bool, companions: Int, reminded: Bool = false
        ) {
            self.id = id
            self.ref = ref
            self.netID = netID
            self.status = status
            self.promise = promise
            self.pickupAt = pickupAt
            self.dropoffAt = dropoffAt
            self.pickup = pickup
            self.dropoff = dropoff
            self.wheelchair = wheelchair
            self.companions = companions
            self.reminded = reminded
        }

        /// Seats the ride takes aboard.
        public var seats: Int { VanDomain.Ride.seats(wheelchair: wheelchair, companions: companions) }
    }

    /// What the driver tapped at one stop (``stop_actuals``).
    public struct Actual: Sendable, Hashable {
        /// "Arrived".
        public var arrivedAt: Date?
        /// The outcome's time (boarded, no-show, dropped off).
        public var doneAt: Date?
        /// The outcome.
        public var outcome: TapAction?

        /// Nothing tapped.
        public static let none = Actual()

        /// Creates a value.
        public init(arrivedAt: Date? = nil, doneAt: Date? = nil, outcome: TapAction? = nil) {
            self.arrivedAt = arrivedAt
            self.doneAt = doneAt
            self.outcome = outcome
        }
    }

    /// One stop of the run.
    public struct Stop: Sendable, Hashable {
        /// The ride.
        public var ride: Ride
        /// Pickup or drop-off.
        public var kind: StopKind
        /// What was tapped there.
        public var actual: Actual

        /// Creates a value.
        public init(ride: Ride, kind: StopKind, actual: Actual) {
            self.ride = ride
            self.kind = kind
            self.actual = actual
        }

        /// The planned time (a drop-off's never before its pickup's).
        public var plannedAt: Date {
            kind == .pickup ? ride.pickupAt : RunOrder.plannedDropoff(pickupAt: ride.pickupAt, dropoffAt: ride.dropoffAt)
        }
        /// Where the stop is, when known.
        public var location: Coordinate? { kind == .pickup ? ride.pickup : ride.dropoff }
        /// The end of the promised window, on the stop that carries the promise; nil on the other.
        public var windowEnd: Date? { ride.promise.windowEnd(at: kind) }
        /// Whether the stop has its outcome.
        public var isDone: Bool { actual.outcome != nil }
        /// The order key (by plan; `arrived` adds the "arrived" tap of a stop not finished).
        public func orderKey(arrivals: Bool) -> RunOrder.Key {
            RunOrder.Key(rideID: ride.id, kind: kind, plannedAt: plannedAt, arrivedAt: arrivals && !isDone ? actual.arrivedAt : nil)
        }

        /// How late the stop runs against its promise (``Lateness/of(windowEnd:arrived:eta:now:)``):
        /// by the arrival tap (or the outcome without one), else `eta`, else `now` once past the window.
        public func lateness(eta: Date?, now: Date) -> Lateness? {
            Lateness.of(windowEnd: windowEnd, arrived: actual.arrivedAt ?? actual.doneAt, eta: eta, now: now)
        }
    }

    /// The van.
    public var vanID: Int64
    /// Every stop, in ``RunOrder`` as planned (arrivals aside): a no-show's drop-off is no stop.
    public var stops: [Stop]

    /// The run of `rides` with their `actuals` (by ride, pickup then drop-off), in plan order.
    public init(vanID: Int64, rides: [(ride: Ride, pickup: Actual, dropoff: Actual)]) {
        self.vanID = vanID
        var stops: [Stop] = []
        stops.reserveCapacity(rides.count * 2)
        for entry in rides {
            stops.append(Stop(ride: entry.ride, kind: .pickup, actual: entry.pickup))
            // A no-show (tapped, or recorded by the office) has no drop-off.
            if entry.pickup.outcome != .noShow && entry.ride.status != .noShow {
                stops.append(Stop(ride: entry.ride, kind: .dropoff, actual: entry.dropoff))
            }
        }
        self.stops = Self.ordered(stops, arrivals: false)
    }

    /// `stops` in ``RunOrder``: each key made once, and the small keys sorted rather than the
    /// stops themselves (a busy day's run has thousands).
    static func ordered(_ stops: [Stop], arrivals: Bool) -> [Stop] {
        let keys = stops.map { $0.orderKey(arrivals: arrivals) }
        return keys.indices.sorted { RunOrder.precedes(keys[$0], keys[$1]) }.map { stops[$0] }
    }

    /// The stops not done, in the order the van drives them now (a stop it is at first).
    public var remaining: [Stop] {
        Self.ordered(stops.filter { !$0.isDone }, arrivals: true)
    }

    /// The next stop: the one the van is at, else the first not done by plan.
    public var next: Stop? {
        stops.filter { !$0.isDone }.min { RunOrder.precedes($0.orderKey(arrivals: true), $1.orderKey(arrivals: true)) }
    }
}
