import ServiceLifecycle

extension PGPool: Service {
    /// Lends connections until the service group shuts down (or this task is cancelled),
    /// then closes them. Put the pool first in the group: services stop in reverse order,
    /// so everything that queries stops before the pool does.
    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }
}
