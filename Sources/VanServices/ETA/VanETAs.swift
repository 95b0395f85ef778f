import Foundation
import VanDomain
import VanScheduler

/// One van on the road, worked out once: where it was last known to be, each remaining stop's
/// estimate (``RoadETA``), and what riders and alerts need of each ride on it. Values only: what a
/// rider may see, which rides are late and which are due a reminder are read from it.
public struct VanETAs: Sendable {
    /// Where the fix came from.
    public enum Source: String, Sendable, Hashable {
        /// A position no older than `VAND_POSITION_STALE`.
        case position
        /// The last stop the driver tapped today (no fresh position, or the tap is newer).
        case tap
    }

    /// A ride with a stop left on the van's route today.
    public struct RoadRide: Sendable, Hashable {
        /// The ride.
        public var id: UUID
        /// Its rider.
        public var netID: String
        /// Pending or approved.
        public var status: RideStatus
        /// What she was promised.
        public var promise: RidePromise
        /// The planned pickup.
        public var pickupAt: Date
        /// Whether the reminder fired.
        public var reminded: Bool

        /// Creates a ride's facts; see the properties.
        public init(id: UUID, netID: String, status: RideStatus, promise: RidePromise, pickupAt: Date, reminded: Bool = false) {
            self.id = id
            self.netID = netID
            self.status = status
            self.promise = promise
            self.pickupAt = pickupAt
            self.reminded = reminded
        }

        /// When her wait for the van begins: the pickup window's start, or the planned pickup of an arrive-by ride.
        public var opensAt: Date { promise.kind == .pickup ? promise.window.start : pickupAt }
    }

    /// A stop whose ETA is late by ``Lateness``'s rule.
    public struct LateStop: Sendable, Hashable {
        /// The ride.
        public var rideID: UUID
        /// The stop with the promise on it.
        public var stop: RoadETA.StopKind
        /// When the van is now expected there.
        public var eta: Date
        /// The end of the promised window.
        public var windowEnd: Date
    }

    /// The van.
    public let vanID: Int64
    /// Where and when the van was last known to be.
    public let fix: RoadETA.Fix
    /// Whether that is a position or a tap.
    public let source: Source
    /// Each remaining stop's estimate, in route order.
    public let estimates: [RoadETA.Estimate]
    /// The rides with stops left, by id.
    public let rides: [UUID: RoadRide]
    /// When this was worked out.
    public let now: Date

    /// The van's estimates as of `now`.
    public init(vanID: Int64, fix: RoadETA.Fix, source: Source, estimates: [RoadETA.Estimate], rides: [UUID: RoadRide], now: Date) {
        self.vanID = vanID
        self.fix = fix
        self.source = source
        self.estimates = estimates
        self.rides = rides
        self.now = now
    }

    /// What the rider of `rideID` may see: her pickup's ETA (when the van is at her pickup ready
    /// for her, ``RoadETA/Estimate/ready``: an early van waits there for her window), from `lead` before her wait begins
    /// until she is on board (her pickup is no longer among the stops), only while the ride is
    /// approved. Nil otherwise.
    public func rider(_ rideID: UUID, lead: TimeInterval) -> RiderETA? {
        guard let ride = rides[rideID], ride.status == .approved, now >= ride.opensAt.addingTimeInterval(-lead),
            let pickup = estimates.first(where: { $0.stop.rideID == rideID && $0.stop.kind == .pickup })
        else { return nil }
        // The promise is on the pickup, or on the drop-off for an arrive-by ride.
        let promised = estimates.first { $0.stop.rideID == rideID && $0.stop.windowEnd != nil }
        return RiderETA(
            rideID: rideID, vanID: vanID, at: pickup.here ? pickup.arrival : pickup.ready, now: now, stopsBefore: pickup.stopsBefore,
            vanHere: pickup.here,
            lateness: promised?.lateness ?? .onTime, atWindowStart: !pickup.here && pickup.waitsForOpening)
    }

    /// Every rider who may see her ETA now (``rider(_:lead:)``), with her net ID.
    public func visible(lead: TimeInterval) -> [(netID: String, eta: RiderETA)] {
        rides.values.compactMap { ride in rider(ride.id, lead: lead).map { (ride.netID, $0) } }
    }

    /// Stops whose ETA is late by ``Lateness``'s rule (a whole minute past the window), one per ride.
    public var late: [LateStop] {
        var seen = Set<UUID>()
        return estimates.compactMap { estimate in
            guard estimate.isLate, let windowEnd = estimate.stop.windowEnd, seen.insert(estimate.stop.rideID).inserted else { return nil }
            return LateStop(rideID: estimate.stop.rideID, stop: estimate.stop.kind, eta: estimate.arrival, windowEnd: windowEnd)
        }
    }

    /// Approved rides not yet reminded whose pickup the van is expected at, ready for the rider
    /// (``RoadETA/Estimate/ready``), within `lead` (the reminder's), with that ETA.
    public func dueReminders(lead: TimeInterval) -> [(rideID: UUID, eta: Date)] {
        estimates.compactMap { estimate in
            guard estimate.stop.kind == .pickup, let ride = rides[estimate.stop.rideID], ride.status == .approved, !ride.reminded,
                estimate.ready <= now.addingTimeInterval(lead)
            else { return nil }
            return (estimate.stop.rideID, estimate.ready)
        }
    }
}

/// What a rider sees of her van on the road: when it is at her pickup ready for her and how many
/// stops come first.
public struct RiderETA: Sendable, Hashable {
    /// The ride.
    public var rideID: UUID
    /// The van.
    public var vanID: Int64
    /// When the van is expected at her pickup ready for her: the later of its arrival and her
    /// window's start (when it arrived, if it is there).
    public var at: Date
    /// Whether the van is due at her pickup before her window and waits there for it (`at` is the window's start).
    public var atWindowStart: Bool
    /// Whole minutes from now until then, rounded (0 when it is there or due).
    public var minutes: Int
    /// Stops the van makes before hers.
    public var stopsBefore: Int
    /// Whether the van is at her pickup (the driver tapped "arrived").
    public var vanHere: Bool
    /// Whole minutes her promised stop's ETA runs late (``Lateness/minutes``); 0 on time.
    public var lateMinutes: Int

    /// The rider's view of an estimate `at` as of `now`; `atWindowStart`: the van is early and `at` is her window's start.
    public init(
        rideID: UUID, vanID: Int64, at: Date, now: Date, stopsBefore: Int, vanHere: Bool, lateness: Lateness,
        atWindowStart: Bool = false
    ) {
        self.rideID = rideID
        self.vanID = vanID
        self.at = at
        self.atWindowStart = atWindowStart && !vanHere
        minutes = vanHere ? 0 : max(0, Int((at.timeIntervalSince(now) / 60).rounded()))
        self.stopsBefore = stopsBefore
        self.vanHere = vanHere
        lateMinutes = lateness.minutes
    }

    /// "The van is here", "The van is about 6 minutes away, 2 stops before yours", or for a van
    /// early for her window, "The van will be at your stop when your window opens, in about 20
    /// minutes, 2 stops before yours".
    public var sentence: String {
        if vanHere { return "The van is here." }
        let inMinutes = minutes < 1 ? "in less than a minute" : "in about \(minutes) minute\(minutes == 1 ? "" : "s")"
        let away =
            atWindowStart
            ? "The van will be at your stop when your window opens, \(inMinutes)"
            : minutes < 1 ? "The van is less than a minute away" : "The van is about \(minutes) minute\(minutes == 1 ? "" : "s") away"
        let stops =
            switch stopsBefore {
            case 0: "your stop is next"
            case 1: "1 stop before yours"
            default: "\(stopsBefore) stops before yours"
            }
        return "\(away), \(stops)."
    }
}
