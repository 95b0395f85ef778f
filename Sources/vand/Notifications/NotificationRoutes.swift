import Foundation
import Hummingbird
import ServiceLifecycle
import VanDomain
import VanServices

/// The rider's inbox (login needed; a rider sees only their own):
/// - `GET /v1/notifications?after=ID&limit=` → notifications with a larger id, oldest first
/// - `GET /v1/notifications/stream` → server-sent events, one per notification; resumes
///   after `Last-Event-ID` (or `?after=`), with a comment line every 15 s to keep it open.
///   It ends (`event: closed`) soon after its session ends, and when the rider opens one
///   more than ``StreamSessions/perRider``, the oldest ends (``StreamSessions``). While her van
///   is on the road and on its way to her, `event: eta` events (no `id:`) carry
///   `{"ride_id", "eta": {…} | null}` as the van moves (``ETAFeed``; null: no longer shown).
struct NotificationRoutes: Sendable {
    let auth: RiderAuth
    let inbox: Inbox
    let feed: InboxFeed
    /// Ends a stream when its session ends, and a rider's oldest past the cap.
    let streams: StreamSessions
    /// Riders' ETAs from the road.
    let etas: ETAFeed
    let clock: ServiceTime
    /// How often an idle stream sends a keep-alive comment.
    var heartbeat: Duration = .seconds(15)

    func register(on router: Router<AppRequestContext>) {
        let v1 = router.group("v1").add(middleware: auth.authenticator(role: .rider))
        v1.get("notifications", use: list)
        v1.get("notifications/stream", use: stream)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let netID = try Self.netID(context)
        let query = request.uri.queryParameters
        var problems: [ValidationError] = []
        let after = Self.cursor(query["after"].map(String.init), field: "after", allowEmpty: false, problems: &problems)
        var limit = 50
        if let text = query["limit"] {
            if let value = Int(text), (1...200).contains(value) {
                limit = value
            } else {
                problems.append(ValidationError(field: "limit", reason: "must be 1 to 200"))
            }
        }
        guard problems.isEmpty else { throw InvalidFields(problems) }
        let items = try await inbox.list(netID, after: after, limit: limit)
        let list = NotificationList(notifications: items.map { NotificationView($0, clock: clock) }, next: items.last?.id ?? after)
        var response = try context.responseEncoder.encode(list, from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let session = context.session else { throw Problem.unauthorized(tokenGiven: false) }
        let netID = session.netID.rawValue
        var problems: [ValidationError] = []
        let resume = request.headers[.init("Last-Event-ID")!] ?? request.uri.queryParameters["after"].map(String.init)
        let after = Self.cursor(resume, field: "Last-Event-ID", problems: &problems)
        guard problems.isEmpty else { throw InvalidFields(problems) }
        let inbox = self.inbox, feed = self.feed, streams = self.streams, clock = self.clock, heartbeat = self.heartbeat, etas = self.etas
        let body = ResponseBody { writer in
            let endings = streams.open(session)
            let wakeups = feed.wakeups(for: netID)
            let etaUpdates = etas.updates(for: netID)
            // ETAs wait here, the newest per ride, with one `.eta` signal pending at most; so the
            // newest few signals kept always hold a wake-up, a beat and an ending that came.
            let pendingETAs = PendingETAs()
            let (signals, signal) = AsyncStream.makeStream(of: StreamSignal.self, bufferingPolicy: .bufferingNewest(4))
            try await withThrowingTaskGroup(of: Void.self) { group in
                defer { group.cancelAll() }
                group.addTask {
                    for await _ in wakeups { signal.yield(.wakeup) }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: heartbeat)
                        signal.yield(.beat)
                    }
                }
                group.addTask {
                    for await update in etaUpdates where pendingETAs.put(update) { signal.yield(.eta) }
                }
                group.addTask {
                    for await ending in endings {
                        signal.yield(.end(ending))
                        signal.finish()
                    }
                }
                try await writer.write(ServerSentEvent.retry(.seconds(3)))
                var last = after
                try await withGracefulShutdownHandler {
                    signals: for await next in signals {
                        switch next {
                        case .beat:
                            try await writer.write(ServerSentEvent.comment("keep-alive"))
                        case .end(let ending):
                            try await writer.write(StreamClosedView.event(ending))
                            break signals
                        case .eta:
                            try await writer.write(pendingETAs.take().map { try ETAEventView($0, clock: clock).serverSentEvent() })
                        case .wakeup:
                            while true {
                                let items = try await inbox.list(netID, after: last, limit: 100)
                                guard !items.isEmpty else { break }
                                try await writer.write(items.map { try NotificationView($0, clock: clock).serverSentEvent() })
                                last = items.last!.id
                            }
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

    /// What wakes a stream's writer.
    private enum StreamSignal: Sendable {
        /// The inbox may have grown.
        case wakeup
        /// Time for a keep-alive comment.
        case beat
        /// The stream must end.
        case end(StreamSessions.Ending)
        /// ETAs wait in ``PendingETAs``.
        case eta
    }

    private static func netID(_ context: AppRequestContext) throws -> String {
        guard let session = context.session else { throw Problem.unauthorized(tokenGiven: false) }
        return session.netID.rawValue
    }

    /// A notification id; absent is 0. Empty is 0 too for the stream (a browser's EventSource may send it), not for the list.
    private static func cursor(_ text: String?, field: String, allowEmpty: Bool = true, problems: inout [ValidationError]) -> Int64 {
        guard let text, !(allowEmpty && text.isEmpty) else { return 0 }
        // Digits only, as openapi.yaml says (an integer from 0): no sign, no spaces.
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(text) else {
            problems.append(ValidationError(field: field, reason: "must be a notification id (a whole number)"))
            return 0
        }
        return value
    }
}
