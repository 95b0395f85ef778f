import CompressNIO
import Foundation
import Hummingbird
import NIOCore

/// Gzips the web app's text answers (HTML, CSS, JavaScript, SVG, and the YAML contract) of a
/// known length from `minimumBytes` up for clients whose `Accept-Encoding` takes gzip. The API's
/// JSON is sent as it is: the ride list a rider's app polls is answered from memory in tens of
/// microseconds, and gzip of its 14 kB takes about 100 µs (zlib level 6), several reads' worth of
/// CPU per read, where the page weights a first visit pays for are the web app's. Every answer it could
/// compress says `Vary: Accept-Encoding`, compressed or not, so no cache hands one client's
/// encoding to another. Answers without a length (the server-sent event streams) and
/// `text/event-stream` pass untouched, as do answers that already carry a `Content-Encoding`.
struct ResponseCompression<Context: RequestContext>: RouterMiddleware {
    /// Below this, gzip's 18-byte frame and the CPU cost outweigh what it saves.
    var minimumBytes = 1_024
    /// Above this an answer is sent as it is rather than held in memory a second time.
    var maximumBytes = 4 << 20

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard let length = response.body.contentLength, (minimumBytes...maximumBytes).contains(length),
            response.headers[.contentEncoding] == nil,
            let type = response.headers[.contentType], Self.isText(type)
        else { return response }
        if !response.headers[values: .vary].contains(where: { $0.lowercased().contains("accept-encoding") }) {
            response.headers[values: .vary].append("Accept-Encoding")
        }
        guard Self.acceptsGzip(request.headers[values: .acceptEncoding]) else { return response }
        var plain = try await Self.collect(response.body, capacity: length)
        let compressed = try plain.compress(with: .gzip())
        guard compressed.readableBytes < length else { return response }
        response.headers[.contentEncoding] = "gzip"
        // A strong validator names one representation: the gzipped one gets its own.
        if let tag = response.headers[.eTag], tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 2 {
            response.headers[.eTag] = "\"\(tag.dropFirst().dropLast())-gzip\""
        }
        response.body = ResponseBody(byteBuffer: compressed)  // sets Content-Length
        return response
    }

    /// Whether a `Content-Type` is text worth compressing: never JSON (see above), never an event
    /// stream (each event must reach the browser when it is written).
    static func isText(_ contentType: String) -> Bool {
        // The types vand writes itself first, by prefix, without Foundation's trimming and case
        // folding below: those took 4.9 % of vand's CPU on the cached ride list (docs/load.md).
        if contentType.hasPrefix("application/json") || contentType.hasPrefix("application/problem+json") { return false }
        if contentType.hasPrefix("text/html") || contentType.hasPrefix("text/css") { return true }
        let type = contentType.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased()
        if type == "text/event-stream" { return false }
        if type.hasPrefix("text/") || type == "image/svg+xml" { return true }
        guard type.hasPrefix("application/") else { return false }
        return type.hasSuffix("yaml") || type.hasSuffix("xml") || type.hasSuffix("javascript")
    }

    /// Whether `Accept-Encoding` (its field values) takes gzip: `gzip`, `x-gzip` or `*` with a
    /// non-zero weight, the named coding deciding over `*`.
    static func acceptsGzip(_ values: [String]) -> Bool {
        var gzip: Double?
        var any: Double?
        for item in values.joined(separator: ",").split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let first = parts.first else { continue }
            let name = first.trimmingCharacters(in: .whitespaces).lowercased()
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q" { weight = Double(pair[1]) ?? 0 }
            }
            if name == "gzip" || name == "x-gzip" { gzip = max(gzip ?? 0, weight) } else if name == "*" { any = weight }
        }
        return (gzip ?? any ?? 0) > 0
    }

    /// The whole body of an answer of known length, as one buffer.
    private static func collect(_ body: ResponseBody, capacity: Int) async throws -> ByteBuffer {
        let sink = BodySink(ByteBufferAllocator().buffer(capacity: capacity))
        try await body.write(CollectingWriter(sink: sink))
        return sink.buffer
    }
}

/// Where ``CollectingWriter`` puts what it is given (a class: `finish` consumes the writer).
private final class BodySink {
    var buffer: ByteBuffer
    init(_ buffer: ByteBuffer) { self.buffer = buffer }
}

/// A body writer that keeps what is written instead of sending it.
private struct CollectingWriter: ResponseBodyWriter {
    let sink: BodySink

    mutating func write(_ buffer: ByteBuffer) async throws {
        sink.buffer.writeImmutableBuffer(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
