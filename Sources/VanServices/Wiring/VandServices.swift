import Foundation
import VanPostgres

/// The services, built once from the settings, a pool and a clock: the one wiring that `vand`'s
/// routes, `vanadmin`'s commands and `vand-bench`'s simulated office all use. A rule that reads
/// a setting (auto-approve, the booking horizon, the no-show wait) reads it here for every path.
public struct VandServices: Sendable {
    /// What the services were built from.
    public let settings: VandSettings
    /// The database.
    public let pool: PGPool
    /// "Now" for every decision.
    public let clock: any TimeSource
    /// Booking by the office's rules (``BookingSettings/rules``: auto-approve included).
    public let booking: BookingService
    /// A rider's own rides: her list, her cancellations.
    public let rides: RiderRides
    /// The dispatcher's decisions: approve, reject, move, cancel, no-show, complete.
    public let dispatch: DispatchService
    /// The van on the road: shifts, runs, taps, positions.
    public let road: Road
    /// ETAs from the road, per van.
    public let eta: ETAService
    /// A dispatcher's correction of a tap after the undo window.
    public let tapCorrections: TapCorrection
    /// Named places.
    public let places: PlaceStore
    /// Service hours and closed days.
    public let calendar: ServiceCalendarStore
    /// The fleet.
    public let vans: VanStore
    /// Riders' notifications.
    public let inbox: Inbox
    /// Whom the office may book for.
    public let riders: RiderDirectory
    /// The no-show policy: records, notices, appeals, decisions, suspensions.
    public let standing: NoShowStanding
    /// Standing rides: a rider's weekly series shown, edited, held and resumed.
    public let series: SeriesService

    /// Builds every service on `pool`; bookings and cancellations tell `routeChanges` (the
    /// background planner) of the days they changed.
    public init(settings: VandSettings, pool: PGPool, clock: any TimeSource = SystemTimeSource(), routeChanges: RouteChangeHook = .none) {
        self.settings = settings
        self.pool = pool
        self.clock = clock
        let zone = settings.timeZone
        booking = BookingService(pool: pool, timeZone: zone, rules: settings.booking.rules, routeChanges: routeChanges)
        rides = RiderRides(pool: pool, routeChanges: routeChanges)
        dispatch = DispatchService(pool: pool, timeZone: zone, policy: settings.booking.policy)
        road = Road(pool: pool, clock: clock, settings: settings.road, timeZone: zone)
        eta = ETAService(pool: pool, settings: settings.events, timeZone: zone)
        tapCorrections = TapCorrection(pool: pool, clock: clock)
        places = PlaceStore(pool: pool)
        calendar = ServiceCalendarStore(pool: pool, timeZone: zone)
        vans = VanStore(pool: pool)
        inbox = Inbox(pool: pool)
        riders = RiderDirectory(pool: pool)
        standing = NoShowStanding(pool: pool, rule: settings.road.noShowRule, timeZone: zone, hotline: settings.hotline)
        series = SeriesService(pool: pool, booking: booking, routeChanges: routeChanges)
    }

    /// Accounts, with passwords hashed at the configured cost.
    public func accounts() -> AccountService {
        AccountService(
            pool: pool, hasher: PasswordHasher(cost: settings.accounts.bcryptCost), settings: settings.accounts,
            clock: clock, timeZone: settings.timeZone)
    }
}
