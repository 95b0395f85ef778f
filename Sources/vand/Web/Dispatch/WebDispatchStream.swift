import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import VanDomain
import VanServices

/// The console's live feed and the streams open on it: a dispatcher holds at most
/// ``StreamSessions/perRider`` (the oldest closes), the process at most ``maxStreams``; each
/// ends soon after its session does (a sign-out ends everything).
struct WebDispatchLive: Sendable {
    /// Ride events, van positions and alerts (a `Service` in vand's group).
    let feed: DispatchFeed
    /// The dispatchers' open streams and their sessions (a `Service`, a rider-change follower).
    let streams: StreamSessions
    /// Most streams one dispatcher holds open (several screens and tabs); the next closes the oldest.
    static let perDispatcher = 4
    /// Most streams open at once on this vand, all dispatchers together (``ConnectionSettings/consoleStreams``).
    var maxStreams = ConnectionSettings().consoleStreams
    /// How often an idle stream sends a keep-alive comment.
    var heartbeat: Duration = .seconds(15)
}

/// `GET /dispatch/stream`: server-sent events for dispatchers (docs/dispatch.md), each `data:` a
/// small JSON object:
/// - `event: ride`  `{"ride": "<uuid>", "kind": "<ride event kind>", "van": <id or null>, "day": "YYYY-MM-DD"}`
/// - `event: van`   `{"van": <id>}`
/// - `event: alert` `{"kind": "late|no_show|parked|pending|unstaffed"}`
/// (the data's types are in WebDispatchStream+Events.swift). It ends with `event: closed` (`session_ended`, or `too_many_streams` for the oldest past the cap).
struct WebDispatchStream: Sendable {
    let console: WebDispatchRoutes

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        guard let live = console.dispatch.live else {
            throw WebErrorPage(status: .serviceUnavailable, title: "Live updates are off", detail: "Reload the page to see what changed.")
        }
        guard live.streams.openCount < live.maxStreams else {
            var response = Response(
                status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "60"],
                body: .init(byteBuffer: ByteBuffer(string: "Too many live streams are open; reload the page to see what changed.\n")))
            response.headers[.cacheControl] = "no-store"
            throw WebAnswer(response: response)
        }
        let body = ResponseBody { writer in
            let endings = live.streams.open(session)
            let updates = live.feed.updates()
            let heartbeat = live.heartbeat
            let (signals, signal) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(DispatchFeed.buffer))
            try await withThrowingTaskGroup(of: Void.self) { group in
                defer { group.cancelAll() }
                group.addTask {
                    for await update in updates { signal.yield(.update(update)) }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: heartbeat)
                        signal.yield(.beat)
                    }
                }
                group.addTask {
                    for await ending in endings {
                        signal.yield(.end(ending))
                        signal.finish()
                    }
                }
                try await writer.write(ServerSentEvent.retry(.seconds(3)))
                try await withGracefulShutdownHandler {
                    signals: for await next in signals {
                        switch next {
                        case .beat:
                            try await writer.write(ServerSentEvent.comment("keep-alive"))
                        case .end(let ending):
                            try await writer.write(StreamClosedView.event(ending))
                            break signals
                        case .update(let update):
                            try await writer.write(Self.event(update))
                        }
                    }
                } onGracefulShutdown: {
                    signal.finish()
                }
            }
            try await writer.finish(nil)
        }
        return .eventStream(body)
    }

    private enum Signal: Sendable {
        case update(DispatchUpdate)
        case beat
        case end(StreamSessions.Ending)
    }
}
