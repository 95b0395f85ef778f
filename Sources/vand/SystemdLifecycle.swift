import ArgumentParser
import Foundation
import Glibc
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals
import VanServices

/// Talks to systemd for the whole process: `WATCHDOG=1` at half of `WATCHDOG_USEC`
/// while running, `STOPPING=1` when graceful shutdown starts, and — since a
/// graceful shutdown may take a while — a second SIGTERM or SIGINT exits at once.
/// (`READY=1` is sent by whoever knows start-up is complete: the HTTP server once
/// it is bound, or the worker once its loop runs.)
struct SystemdLifecycle: Service {
    let notifier: SystemdNotifier
    let logger: Logger

    func run() async throws {
        await withGracefulShutdownHandler {
            guard let interval = notifier.watchdogInterval else {
                // Nothing to pet: just wait for shutdown.
                try? await gracefulShutdown()
                return
            }
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                notifier.watchdog()
                try? await Task.sleep(for: interval)
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
    // The database first: services stop in reverse order, so it closes after everything that uses it.
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
        .init(service: database), .init(service: SystemdLifecycle(notifier: notifier, logger: logger)),
    ]
    if loop {
        services.append(.init(service: makeTriggerLoop(configuration: configuration, database: database, logger: logger, metrics: metrics)))
    }
    if http {
        let what = loop ? "serving HTTP and running the trigger loop" : "serving HTTP"
        let app = buildApplication(configuration: configuration, database: database, logger: logger, metrics: metrics) { channel in
            let address = channel.localAddress.map { "\($0)" } ?? "\(configuration.host):\(configuration.port)"
            notifier.ready(status: "\(what) on \(address)")
        }
        services.append(.init(service: app))
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
