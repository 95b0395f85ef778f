import Hummingbird

extension Response {
    /// A 200 server-sent event stream of `body`: never cached, never held back by a proxy's
    /// buffering, never compressed (``ResponseCompression`` skips `text/event-stream`). The
    /// riders' notification stream and the console's use it.
    static func eventStream(_ body: ResponseBody) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"], body: body)
    }
}
