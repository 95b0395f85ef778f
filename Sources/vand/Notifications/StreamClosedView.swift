import VanServices

/// The data of a stream's last event, `event: closed`: `{"reason": "session_ended"}` or
/// `{"reason": "too_many_streams"}`. The rider's stream and the console's end alike.
struct StreamClosedView: Encodable, Sendable {
    /// Why the stream ended, as clients read it.
    enum Reason: String, Encodable, Sendable {
        /// Its session ended (signed out, revoked, expired, the account disabled): do not reconnect.
        case sessionEnded = "session_ended"
        /// A newer stream of the same account took its place (past the cap).
        case tooManyStreams = "too_many_streams"
    }

    /// Why it ended.
    let reason: Reason

    /// The view of `ending`.
    init(_ ending: StreamSessions.Ending) {
        switch ending {
        case .sessionEnded: reason = .sessionEnded
        case .replaced: reason = .tooManyStreams
        }
    }

    /// The last event of a stream ended for `ending`. One closed for a newer stream also asks the
    /// client to wait a minute before it reconnects (`retry: 60000`).
    static func event(_ ending: StreamSessions.Ending) throws -> ServerSentEvent {
        try ServerSentEvent(.closed, retry: ending == .replaced ? .seconds(60) : nil, payload: StreamClosedView(ending))
    }
}
