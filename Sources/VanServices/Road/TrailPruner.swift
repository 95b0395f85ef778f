import Foundation
import Logging
import ServiceLifecycle

/// Deletes van trail older than ``RoadSettings/trailDays``: once at start, then every `interval`
/// (an hour), until graceful shutdown. Safe on every node (a `DELETE` by time).
public struct TrailPruner: Service {
    let positions: PositionService
    let interval: Duration
    let logger: Logger

    /// A pruner over `positions`, every `interval`.
    public init(positions: PositionService, interval: Duration = .seconds(3_600), logger: Logger) {
        self.positions = positions
        self.interval = interval
        self.logger = logger
    }

    /// Prunes until cancelled or shut down gracefully.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let pruned = try await positions.pruneTrail()
                    if pruned > 0 { logger.info("pruned van trail", metadata: ["fixes": "\(pruned)"]) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("pruning the van trail failed; trying again later", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
