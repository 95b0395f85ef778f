import Foundation

/// Settings of the background route improvement (``RouteImprover``).
public struct ImprovementSettings: Sendable, Hashable {
    /// Seconds of search per stretch of service in one background run (default 2); 0 turns
    /// background improvement off (`vanadmin plan optimize` still works).
    public var seconds: Double = 2
    /// How long bookings must pause (on that day or any other) before a day's run starts (default
    /// 2 s): a burst of bookings is improved once, after it, not once per booking, and the search
    /// never competes with the bookings it would be overtaken by or slow down (a run that finds a
    /// route changed writes nothing).
    public var quietPeriod: TimeInterval = 2
    /// The longest a day waits for quiet once signalled (default 60 s): under a steady stream of
    /// bookings it is still improved about once a minute.
    public var maxDelay: TimeInterval = 60
    /// How long a day whose run could not write (a booking changed a route meanwhile, or the
    /// database failed) waits before it is tried again, unless a new booking signals it sooner.
    public var retryDelay: TimeInterval = 5
    /// The least time between the end of one run and the start of the next, as a share of the
    /// run's own length (default 1: the search keeps at most half of one core busy under a
    /// steady stream of bookings).
    public var restShare: Double = 1
    /// How often, at least, the day in progress is re-planned from the road while the improver runs
    /// (default 60 s); 0 turns re-planning from the road off.
    public var roadInterval: TimeInterval = 60
    /// The frozen horizon of re-planning from the road (default 20 minutes): a rider whose pickup
    /// opens within it has been told when her van comes, and re-planning makes her van no later to
    /// her (``RoadReplanner/defaultFrozen``); 0 turns it off.
    public var roadFrozen: TimeInterval = RoadReplanner.defaultFrozen
    /// The least time between two re-plans from the road when a van runs late (default 30 s): a
    /// van whose ETAs pass a window's end (``RouteImprover/roadRunsLate()``) has the day re-planned
    /// at once, not at the next interval, but a van late on every position does not re-plan it on
    /// every position.
    public var lateGap: TimeInterval = 30
    /// Who the audit log and the ride events name.
    public var actor = "planner"

    /// The defaults.
    public init() {}

    /// Whether background improvement runs at all.
    public var enabled: Bool { seconds > 0 }

    /// Reads `VAND_IMPROVE_SECONDS`, `VAND_REPLAN_SECONDS` and `VAND_REPLAN_FROZEN`; a bad value is an error naming it.
    public static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> ImprovementSettings {
        var settings = ImprovementSettings()
        settings.seconds = try SettingSpec.improveSeconds.number(environment)
        settings.roadInterval = try SettingSpec.replanSeconds.number(environment)
        settings.roadFrozen = try SettingSpec.replanFrozen.number(environment) * 60
        return settings
    }
}
