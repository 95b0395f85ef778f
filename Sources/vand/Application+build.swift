import Hummingbird
import NIOCore
import ServiceLifecycle
import Logging
import VanDomain
import VanServices
import VanPostgres

/// Builds the whole HTTP application from configuration and an open database.
/// Tests call this same function with a test database and port 0. `connections` counts the
/// open connections against their caps (nil: caps from the configuration and the open-file limit now).
func buildApplication(
    configuration: AppConfiguration,
    database: Database,
    logger: Logger,
    clock: any TimeSource = SystemTimeSource(),
    metrics: VandMetrics = VandMetrics(),
    routeChanges: RouteChangeHook = .none,
    connections: ConnectionLimits? = nil,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let routes = buildRoutes(configuration: configuration, database: database, clock: clock, metrics: metrics, routeChanges: routeChanges)
    let limits = connections ?? ConnectionLimits(caps: configuration.connectionCaps())
    var app = Application(
        router: routes.router,
        server: .guardedHTTP1(settings: configuration.connections, limits: limits),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "vand"),
        services: routes.services,
        onServerRunning: onServerRunning,
        logger: logger
    )
    let hasher = PasswordHasher(cost: configuration.accounts.bcryptCost)
    app.beforeServerStarts { try await hasher.warmUp() }
    return app
}

/// `/metrics` on `VAND_METRICS_ADDRESS`, when that is set (nil otherwise), so the riders' port
/// never shows it; `/healthz` and `/readyz` too, so probes are answered however many
/// connections hold the riders' port.
func buildMetricsApplication(
    configuration: AppConfiguration,
    database: Database,
    logger: Logger,
    metrics: VandMetrics,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> Application<RouterResponder<AppRequestContext>>? {
    guard let address = configuration.metricsAddress else { return nil }
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: NoSniff())
    MetricsRoute(metrics: metrics, pool: database.pool, reminderLead: configuration.events.reminderLead).register(on: router)
    HealthRoutes(database: database, deadline: configuration.readinessDeadline).register(on: router)
    return Application(
        router: router,
        configuration: .init(address: .hostname(address.host, port: address.port), serverName: "vand-metrics"),
        onServerRunning: onServerRunning,
        logger: logger
    )
}

/// The router and the services its routes need running: the `LISTEN` connections that keep
/// the read cache in step, wake notification streams and end streams whose session ended.
/// The application runs them in its service group (before the server starts, stopped after
/// it); a test runs them the same way (`Application(router:services:)`).
struct VandRoutes {
    /// Every route.
    let router: Router<AppRequestContext>
    /// What the routes need running.
    let services: [any Service]
    /// The feed carrying ETAs to riders' streams (one of ``services``; tests drive it).
    var etaFeed: ETAFeed? = nil
    /// The console's live feed and streams (two of ``services``; tests drive them).
    var dispatchLive: WebDispatchLive? = nil
}

/// The routes, for the application and for in-process tests. Bookings and cancellations tell
/// `routeChanges` (the background planner) of the days they changed; `pages` keeps riders'
/// upcoming pages (nil: one of `VAND_READ_CACHE_MB`), `streams` the open notification streams
/// (nil: `VAND_STREAMS_PER_RIDER` each, on `clock`); both follow this database's rider changes.
func buildRoutes(
    configuration: AppConfiguration, database: Database, clock: any TimeSource = SystemTimeSource(), metrics: VandMetrics = VandMetrics(),
    routeChanges: RouteChangeHook = .none, pages: RiderReadCache<ByteBuffer>? = nil, streams: StreamSessions? = nil
) -> VandRoutes {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: RequestObservation(metrics: metrics))
    router.add(middleware: ResponseCompression<AppRequestContext>())
    router.add(middleware: NoSniff())
    let routeMethods = RouteMethods()
    router.add(middleware: ErrorResponder(hotline: configuration.hotline, clock: clock, timeZone: configuration.timeZone, routeMethods: routeMethods))
    router.add(middleware: ClientAddressing(proxies: configuration.trustedProxies))
    HealthRoutes(database: database, deadline: configuration.readinessDeadline).register(on: router)
    if configuration.metricsAddress == nil {
        MetricsRoute(metrics: metrics, pool: database.pool, reminderLead: configuration.events.reminderLead).register(on: router)
    }
    // Booking routes take the same `riderAuth`: .authenticator(), then POST /v1/rides checks the whitelist.
    // Riders' upcoming-ride pages answered again from memory until the database notifies a
    // change (VanServices' RiderReadCache); a rider's own writes, through the API or the web,
    // drop theirs at once. Tests pass their own, to watch it.
    let pages = pages ?? RiderReadCache<ByteBuffer>(budget: configuration.readCacheBytes)
    let streams = streams ?? StreamSessions(pool: database.pool, clock: clock, perRider: configuration.accounts.streamsPerRider)
    // The console's live stream: its own streams (dispatchers), ended with their sessions as riders' are.
    let dispatchLive = WebDispatchLive(
        feed: DispatchFeed(pool: database.pool, timeZone: configuration.timeZone, clock: clock, pendingAfter: configuration.booking.pendingAlert),
        streams: StreamSessions(pool: database.pool, clock: clock, perRider: WebDispatchLive.perDispatcher),
        maxStreams: configuration.connections.consoleStreams
    )
    let riderChanges = RiderChangeListener(followers: [pages, streams, dispatchLive.streams], configuration: database.pool.configuration)
    let feed = InboxFeed(configuration: database.pool.configuration)
    // Every service, built once from the settings the way vanadmin and vand-bench build them.
    let services = VandServices(settings: configuration.settings, pool: database.pool, clock: clock, routeChanges: routeChanges)
    // ETAs from the road: worked out once per van on each position and tap, carried to riders' streams.
    let etaFeed = ETAFeed(
        configuration: database.pool.configuration, service: services.eta,
        reminders: Reminders(
            pool: database.pool, lead: configuration.events.reminderLead, positionStale: configuration.events.positionStale,
            timeZone: configuration.timeZone),
        alerts: LateAlerts(pool: database.pool), clock: clock, routeChanges: routeChanges
    )
    let riderAuth = RiderAuth(accounts: services.accounts(), pages: pages)
    let serviceClock = ServiceTime(timeZone: configuration.timeZone)
    AccountRoutes(auth: riderAuth, clock: serviceClock).register(on: router)
    RideRoutes(
        auth: riderAuth, booking: services.booking, rides: services.rides,
        settings: configuration.booking, clock: serviceClock, time: clock, metrics: metrics, pages: pages, eta: services.eta
    ).register(on: router)
    ServiceRoutes(
        calendar: services.calendar, places: services.places,
        booking: services.booking, settings: configuration.booking, hotline: configuration.hotline, clock: serviceClock, time: clock
    ).register(on: router)
    StandingRoutes(auth: riderAuth, standing: services.standing, clock: serviceClock, time: clock).register(on: router)
    SeriesRoutes(auth: riderAuth, series: services.series, clock: serviceClock, time: clock).register(on: router)
    let notifications = NotificationRoutes(
        auth: riderAuth, inbox: services.inbox,
        feed: feed, streams: streams, etas: etaFeed, clock: serviceClock
    )
    notifications.register(on: router)
    // The van on the road: the driver's API and positions from drivers' phones and trackers.
    DriverRoutes(auth: riderAuth, road: services.road, vans: services.vans, clock: serviceClock).register(on: router)
    PositionRoutes(auth: riderAuth, road: services.road, clock: serviceClock).register(on: router)
    OpenAPIRoute().register(on: router)
    // The rider web app at `/`, the driver's pages at `/driver` and the dispatcher's console at
    // `/dispatch` (Sources/vand/Web): the same services, HTML and cookies.
    WebApp(
        actions: WebRiderActions(
            accounts: riderAuth.accounts, booking: services.booking, rides: services.rides, inbox: services.inbox,
            calendar: services.calendar, places: services.places,
            settings: configuration.booking, standing: services.standing, time: clock, pages: pages, eta: services.eta,
            series: services.series
        ),
        driver: WebDriverActions(road: services.road, vans: services.vans, time: clock),
        dispatch: WebDispatchActions(
            dispatch: services.dispatch, booking: services.booking,
            rides: services.rides, road: services.road, eta: services.eta,
            standing: services.standing, pool: database.pool, settings: configuration.booking, timeZone: configuration.timeZone, time: clock,
            live: dispatchLive, series: services.series
        ),
        settings: configuration.web, accounts: configuration.accounts, hotline: configuration.hotline, notifications: notifications
    ).register(on: router)
    routeMethods.load(from: router)
    return VandRoutes(
        router: router, services: [riderChanges, feed, streams, etaFeed, dispatchLive.feed, dispatchLive.streams],
        etaFeed: etaFeed, dispatchLive: dispatchLive)
}
