import Foundation

/// One block of a `text/event-stream` as vand's streams write it (the rider's
/// `/v1/notifications/stream`, the console's `/dispatch/stream`): an event with its name, an
/// optional id and its payload as one `data:` line of JSON; a comment; or the reconnection delay.
/// Every block ends with the blank line that dispatches it. Streams write blocks with the body
/// writer's `write(_:)` for events (Response+EventStream.swift), never text of their own.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` names vand's streams send.
    enum Name: String, Sendable, CaseIterable {
        /// The rider's stream: a notification of her inbox (with its id).
        case notification
        /// The rider's stream: her van's ETA for one ride (no id).
        case eta
        /// Both streams' last event: `{"reason": …}` (``StreamClosedView``).
        case closed
        /// The console's stream: a ride event (``DispatchRideEventView``).
        case ride
        /// The console's stream: a van moved (``DispatchVanEventView``).
        case van
        /// The console's stream: something for the alerts page (``DispatchAlertEventView``).
        case alert
    }

    /// The block as written, ending with its blank line.
    let text: String

    /// The event `name` with `payload` encoded by ``APIJSON`` as its data; `id:` when `id` is
    /// given (the client sends it back as `Last-Event-ID`), `retry:` when `retry` is.
    init(_ name: Name, id: Int64? = nil, retry: Duration? = nil, payload: some Encodable) throws {
        var text = ""
        if let retry { text += Self.field("retry", String(Self.milliseconds(retry))) }
        if let id { text += Self.field("id", String(id)) }
        text += Self.field("event", name.rawValue)
        text += Self.field("data", try APIJSON.string(payload))
        self.text = text + "\n"
    }

    private init(text: String) { self.text = text }

    /// A comment (`: text`): clients ignore it; it keeps an idle connection open through proxies.
    static func comment(_ text: String) -> ServerSentEvent {
        ServerSentEvent(text: field("", text) + "\n")
    }

    /// How long a client waits before reconnecting after the connection drops (`retry:`).
    static func retry(_ delay: Duration) -> ServerSentEvent {
        ServerSentEvent(text: field("retry", String(milliseconds(delay))) + "\n")
    }

    /// `name: value` as one line per line of `value`, so no value ever breaks out of its field: a
    /// client joins a field's `data:` lines back with "\n", and a line break (CR, LF or CRLF, as the
    /// format counts them) would otherwise end the field or the event early. JSON as ``APIJSON``
    /// writes it has no line break (strings escape theirs), so a payload is always one `data:` line.
    static func field(_ name: String, _ value: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(value)
        while let breakAt = rest.firstIndex(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            lines.append(rest[..<breakAt])
            rest = rest[rest.index(after: breakAt)...]
        }
        lines.append(rest)
        return lines.map { "\(name): \($0)\n" }.joined()
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
