import Hummingbird

extension Response {
    /// A 200 server-sent event stream of `body`: never cached, never held back by a proxy's
    /// buffering, never compressed (``ResponseCompression`` skips `text/event-stream`). The
    /// riders' notification stream and the console's use it.
    ///
    /// `Connection: close`: when the stream ends (sign-out, past the cap, shutdown) the connection
    /// closes with it (``RequestGuardHandler``), so opening streams cannot hold sockets; a client
    /// reconnects on a new connection anyway (issue 33, item 1).
    static func eventStream(_ body: ResponseBody) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no",
                                        .connection: "close"], body: body)
    }
}
