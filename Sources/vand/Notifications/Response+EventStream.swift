import Hummingbird

extension Response {
    /// A 200 server-sent event stream of `body`: never cached, never held back by a proxy's
    /// buffering, never compressed (``ResponseCompression`` skips `text/event-stream`). The
    /// riders' notification stream and the console's use it, writing ``ServerSentEvent``s.
    ///
    /// `Connection: close`: when the stream ends (sign-out, past the cap, shutdown) the connection
    /// closes with it (``RequestGuardHandler``), so opening streams cannot hold sockets; a client
    /// reconnects on a new connection anyway (issue 33, item 1).
    static func eventStream(_ body: ResponseBody) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no",
                .connection: "close",
            ], body: body)
    }
}

extension ResponseBodyWriter {
    /// Writes `events` in order, in one buffer (nothing when there are none): the one way vand's
    /// event streams write.
    mutating func write(_ events: [ServerSentEvent]) async throws {
        guard !events.isEmpty else { return }
        try await write(ByteBuffer(string: events.map(\.text).joined()))
    }

    /// Writes `event`.
    mutating func write(_ event: ServerSentEvent) async throws {
        try await write([event])
    }
}
