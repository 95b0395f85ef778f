import ArgumentParser
import Foundation
import Glibc
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals
import VanServices

/// Talks to systemd for the whole process: `WATCHDOG=1` at half of `WATCHDOG_USEC`
/// while running and `check` finds nothing wrong (no answer from the database or a stuck
/// event loop skips it, so systemd restarts a vand that stays stuck), `STOPPING=1` when graceful shutdown starts, and — since a
/// graceful shutdown may take a while — a second SIGTERM or SIGINT exits at once.
/// (`READY=1` is sent by whoever knows start-up is complete: the HTTP server once
/// it is bound, or the worker once its loop runs.)
struct SystemdLifecycle: Service {
    let notifier: SystemdNotifier
    let logger: Logger
    /// Nil when healthy, else what is wrong (see ``WatchdogCheck``).
    let check: @Sendable () async -> String?

    func run() async throws {
        await withGracefulShutdownHandler {
            guard let interval = notifier.watchdogInterval else {
                // Nothing to pet: just wait for shutdown.
                try? await gracefulShutdown()
                return
            }
            let clock = ContinuousClock()
            var next = clock.now
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                if let problem = await check() {
                    logger.warning("not petting the systemd watchdog: \(problem)")
                } else {
                    notifier.watchdog()
                }
                next += interval
                try? await Task.sleep(until: max(next, clock.now), clock: clock)
            }
        } onGracefulShutdown: {
            notifier.stopping()
            logger.notice("graceful shutdown: finishing requests in flight and the batch in hand; a second signal exits at once")
            Task.detached {
                // The first signal already went to the service group; this sees the next one.
                for await signal in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
                    FileHandle.standardError.write(Data("vand: second \(signal), exiting now\n".utf8))
                    exit(1)
                }
            }
        }
    }
}

/// Runs the configured parts of vand in one service group: the HTTP server, the
/// trigger loop, or both, plus the systemd lifecycle and the database (closed last).
func runVand(http: Bool, loop: Bool) async throws {
    let (configuration, logger) = try startupConfiguration()
    let notifier = SystemdNotifier()
    notifier.status("starting: connecting to PostgreSQL and checking migrations")
    let database: Database
    do {
        database = try await Database.open(settings: configuration.database, logger: logger)
    } catch {
        logger.critical("cannot start: \(error)")
        notifier.status("failed: \(error)")
        throw ExitCode(1)
    }
    let metrics = VandMetrics()
    // Each check gets at most half the time between two pets, and never more than 5 s.
    let checkTimeout = min(.seconds(5), (notifier.watchdogInterval ?? .seconds(10)) / 2)
    let watchdogCheck = WatchdogCheck(database: database, timeout: checkTimeout)
    // The database first: services stop in reverse order, so it closes after everything that uses it.
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
        .init(service: database), .init(service: SystemdLifecycle(notifier: notifier, logger: logger, check: watchdogCheck.problem)),
    ]
    if loop {
        services.append(.init(service: makeTriggerLoop(configuration: configuration, database: database, logger: logger, metrics: metrics)))
        services.append(.init(service: makeTrailPruner(configuration: configuration, database: database, logger: logger)))
    }
    // Bookings are made where HTTP is served, so that process improves their days in the background.
    let improver =
        http && configuration.improvement.enabled
        ? makeRouteImprover(configuration: configuration, database: database, logger: logger, metrics: metrics) : nil
    if let improver { services.append(.init(service: improver)) }
    if http {
        let what = loop ? "serving HTTP and running the trigger loop" : "serving HTTP"
        let connections = ConnectionLimits(caps: openFileCaps(configuration: configuration, logger: logger))
        let app = buildApplication(
            configuration: configuration, database: database, logger: logger, metrics: metrics,
            routeChanges: improver?.hook ?? .none, connections: connections
        ) { channel in
            let address = channel.localAddress.map { "\($0)" } ?? "\(configuration.host):\(configuration.port)"
            notifier.ready(status: "\(what) on \(address)")
        }
        services.append(.init(service: app))
        let metricsApp = buildMetricsApplication(configuration: configuration, database: database, logger: logger, metrics: metrics) { channel in
            logger.info("serving /metrics on its own listener", metadata: ["address": "\(channel.localAddress.map { "\($0)" } ?? "?")"])
        }
        if let metricsApp { services.append(.init(service: metricsApp)) }
    } else {
        notifier.ready(status: "running the trigger loop")
    }
    var groupConfiguration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    // In-flight requests and the loop's batch get this long; then they are cancelled.
    groupConfiguration.maximumGracefulShutdownDuration = .seconds(20)
    let group = ServiceGroup(configuration: groupConfiguration)
    try await group.run()
    logger.info("stopped")
}

/// Raises the soft open-file limit to the hard one where allowed, derives the connection caps
/// from the limit vand then has, and logs both once.
func openFileCaps(configuration: AppConfiguration, logger: Logger) -> ConnectionCaps {
    let before = FileLimit.current()
    let refusal = FileLimit.raiseSoftToHard()
    let limit = FileLimit.current()
    let caps = configuration.connectionCaps(fileLimit: limit)
    var metadata: Logger.Metadata = [
        "open_files": "\(limit.soft)", "hard_limit": "\(limit.hard)",
        "served": "\(caps.served)", "reserve": "\(caps.reserve)",
        "head_timeout_s": "\(configuration.connections.headTimeout)", "idle_timeout_s": "\(configuration.connections.idleTimeout)",
    ]
    if limit.soft > before.soft { metadata["raised_from"] = "\(before.soft)" }
    if let refusal { metadata["raise_refused"] = "\(refusal)" }
    logger.info("connections: \(caps)", metadata: metadata)
    if let asked = configuration.connections.maxConnections, asked > caps.allowed {
        logger.warning("VAND_MAX_CONNECTIONS=\(asked) is more than \(limit.soft) open files allow; serving \(caps.served) (raise LimitNOFILE)")
    }
    return caps
}
