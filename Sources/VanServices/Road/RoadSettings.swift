import Foundation
import VanDomain

/// Settings of the van's day on the road: the no-show wait, the undo window, when a position
/// goes stale, and how long the trail is kept.
public struct RoadSettings: Sendable, Hashable {
    /// How long the van waits at a pickup before a no-show may be tapped (`VAND_NO_SHOW_WAIT`, 300 s).
    public var noShowWait: TimeInterval = 300
    /// How long after its recording the driver may undo a tap (120 s, fixed by policy).
    public var undoWindow: TimeInterval = 120
    /// A position older than this counts as unknown (`VAND_POSITION_STALE`, 120 s).
    public var positionStale: TimeInterval = 120
    /// Days of trail kept (`VAND_TRAIL_DAYS`, 30).
    public var trailDays: Int = 30
    /// How far in the future a fix's own time may lie (device clocks drift); later is refused.
    public var clockSkew: TimeInterval = 60

    /// The defaults.
    public init() {}

    /// The no-show rule these settings make.
    public var noShowRule: NoShowRule { NoShowRule(wait: noShowWait) }

    /// Reads the settings; the first bad value is an error naming it.
    public static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> RoadSettings {
        var settings = RoadSettings()
        settings.noShowWait = try SettingSpec.noShowWait.number(environment)
        settings.positionStale = try SettingSpec.positionStale.number(environment)
        settings.trailDays = try SettingSpec.trailDays.integer(environment)
        return settings
    }
}
