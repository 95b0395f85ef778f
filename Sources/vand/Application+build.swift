import Hummingbird
import Logging
import VanScheduler

/// The request context every route sees.
typealias AppRequestContext = BasicRequestContext

/// Builds the whole HTTP application from configuration and an open database.
/// Tests call this same function with a test database and port 0.
func buildApplication(
    configuration: AppConfiguration,
    database: Database,
    logger: Logger
) -> some ApplicationProtocol {
    let router = buildRouter(database: database)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "vand"),
        logger: logger
    )
}

/// The router alone, for in-process tests.
func buildRouter(database: Database) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ProblemMiddleware())
    HealthRoutes(database: database).register(on: router)
    return router
}
