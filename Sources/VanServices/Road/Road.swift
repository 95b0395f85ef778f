import Foundation
import VanPostgres

/// The van's day on the road in one value: shifts, the run, taps, positions and tracker tokens,
/// all over one pool, one clock, one set of settings and the service time zone. vand's driver
/// routes, the web's driver pages, the ETA, the reports and the simulation build one of these.
public struct Road: Sendable {
    /// Shifts: start, end, who is on which van.
    public let shifts: ShiftService
    /// The van's run for today.
    public let runs: RunService
    /// Taps at stops and their undo.
    public let taps: TapService
    /// Van positions and the trail.
    public let positions: PositionService
    /// Vehicle trackers' tokens.
    public let trackers: TrackerTokens
    /// The settings the services use.
    public let settings: RoadSettings

    /// Every road service over `pool`, timed by `clock` (inject a manual clock in tests).
    public init(pool: PGPool, clock: any TimeSource, settings: RoadSettings = RoadSettings(), timeZone: TimeZone) {
        shifts = ShiftService(pool: pool, clock: clock)
        runs = RunService(pool: pool, clock: clock, settings: settings, timeZone: timeZone)
        taps = TapService(pool: pool, clock: clock, settings: settings, timeZone: timeZone)
        positions = PositionService(pool: pool, clock: clock, settings: settings)
        trackers = TrackerTokens(pool: pool, clock: clock)
        self.settings = settings
    }
}
