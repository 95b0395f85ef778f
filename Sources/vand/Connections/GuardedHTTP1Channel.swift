import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel with vand's connection guards around it: each accepted
/// connection is counted against ``ConnectionLimits``, gets a ``HeadDeadlineHandler`` before
/// the HTTP decoder and a ``RequestGuardHandler`` after it. Everything else (decoder limits,
/// the keep-alive `idleTimeout`, graceful shutdown) is Hummingbird's own.
///
/// Counting is done here rather than with Hummingbird's `availableConnectionsDelegate`, which
/// stops accepting at its maximum: connections past it would wait unanswered in the kernel's
/// backlog (health probes among them) instead of getting a fast 503 or close.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let limits: ConnectionLimits
    let headTimeout: Duration
    /// The reserve's head timeout (``ConnectionSettings/reserveHeadTimeout``).
    let reserveHeadTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admission = limits.admit()
        let limits = self.limits
        channel.closeFuture.whenComplete { _ in limits.release() }
        let timeout = admission == .served ? headTimeout : min(headTimeout, reserveHeadTimeout)
        let base = self.base
        return channel.eventLoop.makeCompletedFuture {
            let state = ConnectionState(admission: admission, headTimeout: .nanoseconds(Int64(timeout / .nanoseconds(1))))
            let sync = channel.pipeline.syncOperations
            try sync.addHandler(HeadDeadlineHandler(state: state), position: .first)
            return NIOLoopBound(state, eventLoop: channel.eventLoop)
        }.flatMap { state in
            base.setup(channel: channel, logger: logger).flatMapThrowing { value in
                let sync = channel.pipeline.syncOperations
                let hummingbirds = try sync.handler(type: HTTPConnectionStateHandler.self)
                try sync.addHandler(RequestGuardHandler(state: state.value), position: .before(hummingbirds))
                return value
            }
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with vand's connection guards (``GuardedHTTP1Channel``).
    static func guardedHTTP1(settings: ConnectionSettings, limits: ConnectionLimits) -> HTTPServerBuilder {
        .init { responder in
            GuardedHTTP1Channel(
                base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: TimeAmount(settings.idleTimeout))),
                limits: limits, headTimeout: settings.headTimeout, reserveHeadTimeout: settings.reserveHeadTimeout
            )
        }
    }
}
