import Foundation
import VanDomain

/// Where a van on the road can start the rest of its day: its place (its position, or the place
/// of its last stop) and the time it can leave there (now, plus the lateness it carries, e.g.
/// still boarding a rider).
public struct VanStart: Hashable, Sendable {
    /// Where the van is; nil when unknown: the van then starts "anywhere", as a planned route does
    /// (no drive to its first stop is counted).
    public var place: Coordinate?
    /// When the van can leave `place`.
    public var at: Date

    /// A van at `place`, free to leave at `at`.
    public init(place: Coordinate?, at: Date) {
        self.place = place
        self.at = at
    }
}

/// A ride still on a van's route, as the road left it: its booking, and how far it has got.
/// Rides completed or not shown are not road rides: they hold no van any more.
public struct RoadRide: Hashable, Sendable {
    /// How far the ride has got.
    public enum Progress: Hashable, Sendable {
        /// Not picked up yet: it may be re-timed or moved to another van that keeps its promise.
        case waiting
        /// The van is at the pickup and the rider has not boarded yet: the ride stays on its van,
        /// its pickup the van's next stop.
        case arrived
        /// On board since `boardedAt`: the pickup is done and the ride stays on its van, which drops
        /// it off; its planned pickup stays as it was.
        case aboard(boardedAt: Date)
    }

    /// The ride as booked (its van, planned stops, promise and ride-time limit).
    public var ride: BookedRide
    /// How far it has got.
    public var progress: Progress

    /// A ride at `progress`.
    public init(_ ride: BookedRide, progress: Progress = .waiting) {
        self.ride = ride
        self.progress = progress
    }

    /// Whether the pickup is done (the rider is aboard).
    public var isAboard: Bool {
        if case .aboard = progress { return true }
        return false
    }
}

/// One stop of a van's re-planned route, at its projected time (when the van starts service there).
public struct RoadStop: Hashable, Sendable {
    /// The ride served.
    public var rideID: UUID
    /// Whether the rider boards (true) or alights.
    public var isPickup: Bool
    /// The projected start of service.
    public var at: Date

    /// A stop of `rideID` at `at`.
    public init(rideID: UUID, isPickup: Bool, at: Date) {
        self.rideID = rideID
        self.isPickup = isPickup
        self.at = at
    }
}

/// The rest of a day re-planned from the road (``Scheduler/replanFromRoad(vans:starts:rides:now:margin:atRisk:frozen:)``).
public struct RoadReplan: Sendable {
    /// The new van and planned times of every ride whose plan changes, by ride id: each keeps its
    /// promise and ride-time limit, and together they pass the database's route check. An aboard
    /// ride keeps its planned pickup (done) and van.
    public var changes: [UUID: (vanID: Int64, stops: PlannedStops)]
    /// Rides given another van (a subset of `changes`).
    public var moved: Set<UUID>
    /// Rides whose promise no van can keep any more: their plans are left as they were (their
    /// lateness shows in the projected routes, as an ETA would).
    public var unkept: Set<UUID>
    /// Each van's remaining stops in the order it will drive them, at projected times (late rides
    /// at their late times), by van id.
    public var routes: [Int64: [RoadStop]]
    /// Rides whose window the routes as planned, driven from the vans' starts, would miss: late
    /// now if nobody re-plans (the ones re-planning may move).
    public var lateAsPlanned: Set<UUID>
    /// Each van's remaining stops as planned, at the times driving them from the van's start gives
    /// (what an ETA without re-planning says), by van id.
    public var plannedRoutes: [Int64: [RoadStop]]

    /// An empty re-plan: nothing changes.
    public init(
        changes: [UUID: (vanID: Int64, stops: PlannedStops)] = [:], moved: Set<UUID> = [], unkept: Set<UUID> = [],
        routes: [Int64: [RoadStop]] = [:], lateAsPlanned: Set<UUID> = [], plannedRoutes: [Int64: [RoadStop]] = [:]
    ) {
        self.changes = changes
        self.moved = moved
        self.unkept = unkept
        self.routes = routes
        self.lateAsPlanned = lateAsPlanned
        self.plannedRoutes = plannedRoutes
    }
}
