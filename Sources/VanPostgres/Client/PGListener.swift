import CPostgres
import Foundation
import Glibc
import Logging
import Synchronization

/// A `NOTIFY` received on a channel this process listens to.
public struct PGNotification: Sendable, Hashable {
    /// The channel name.
    public let channel: String
    /// The payload text (empty when none was sent).
    public let payload: String
}

/// What a listener reports.
public enum PGListenEvent: Sendable, Hashable {
    /// LISTEN is in place — first at start, then after every reconnect. Notifications
    /// sent while the connection was down are lost, so a consumer should re-read
    /// whatever state it follows when it sees this.
    case listening
    /// The connection was lost after LISTEN was in place: until the next ``listening``,
    /// notifications are not received (a consumer that trusts them should stop trusting).
    case lost
    /// A notification arrived.
    case notification(PGNotification)
}

/// `LISTEN` on its own connection and its own thread (never a pool connection):
/// polls the socket, drains `PQnotifies`, and reconnects and re-listens after the
/// server restarts, with a capped backoff.
public enum PGListener {
    /// Listens on `channels` until the returned stream is dropped or its consumer is cancelled.
    public static func events(
        configuration: PGConfiguration,
        channels: [String],
        logger: Logger = Logger(label: "vand.listen"),
        maxBackoff: Duration = .seconds(2)
    ) -> AsyncStream<PGListenEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PGListenEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let stop = Stop()
        continuation.onTermination = { _ in stop.flag.store(true, ordering: .relaxed) }
        let thread = Thread {
            ListenLoop(
                configuration: configuration, channels: channels, logger: logger, maxBackoff: maxBackoff, stop: stop, continuation: continuation
            ).run()
        }
        thread.name = "vand-listen"
        thread.start()
        return stream
    }

    final class Stop: Sendable {
        let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .relaxed) }
    }
}

private struct ListenLoop {
    let configuration: PGConfiguration
    let channels: [String]
    let logger: Logger
    let maxBackoff: Duration
    let stop: PGListener.Stop
    let continuation: AsyncStream<PGListenEvent>.Continuation

    func run() {
        var backoff = Duration.milliseconds(50)
        while !stop.isSet {
            var listening = false
            do {
                let connection = try PGConnection(configuration: configuration)
                defer { connection.close() }
                for channel in channels {
                    try connection.execute(simple: "LISTEN \(try connection.escapeIdentifier(channel))")
                }
                backoff = .milliseconds(50)
                listening = true
                continuation.yield(.listening)
                try pump(connection)
            } catch {
                if listening { continuation.yield(.lost) }
                if stop.isSet { break }
                logger.warning("LISTEN connection lost; reconnecting", metadata: ["error": "\(error)", "retry_in": "\(backoff)"])
                sleepUnlessStopped(backoff)
                backoff = min(backoff * 2, maxBackoff)
            }
        }
        continuation.finish()
    }

    /// Waits for the socket to become readable and forwards notifications; returns when asked to stop.
    private func pump(_ connection: PGConnection) throws(PGError) {
        let handle = connection.rawHandle
        while !stop.isSet {
            let socket = PQsocket(handle)
            guard socket >= 0 else { throw PGError(kind: .connectionLost, message: "no socket") }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if ready < 0 {
                if errno == EINTR { continue }
                throw PGError(kind: .connectionLost, message: "poll failed: errno \(errno)")
            }
            if ready == 0 { continue }
            // Readable does not always mean a notification: consume and check.
            guard PQconsumeInput(handle) == 1 else {
                throw PGError(kind: .connectionLost, message: connection.lastError)
            }
            while let notify = PQnotifies(handle) {
                let channel = String(cString: notify.pointee.relname)
                let payload = notify.pointee.extra.map { String(cString: $0) } ?? ""
                PQfreemem(notify)
                continuation.yield(.notification(PGNotification(channel: channel, payload: payload)))
            }
            if PQstatus(handle) != CONNECTION_OK {
                throw PGError(kind: .connectionLost, message: connection.lastError)
            }
        }
    }

    private func sleepUnlessStopped(_ duration: Duration) {
        let deadline = ContinuousClock.now + duration
        while !stop.isSet, ContinuousClock.now < deadline {
            var request = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&request, nil)
        }
    }
}
