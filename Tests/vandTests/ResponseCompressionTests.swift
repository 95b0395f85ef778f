import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import vand

@Suite("Text answers are gzipped for clients that ask, on the real router")
struct ResponseCompressionTests {
    static func gunzip(_ buffer: ByteBuffer) throws -> String {
        var compressed = buffer
        return String(buffer: try compressed.decompress(with: .gzip()))
    }

    @Test func aPageIsGzippedWhenAskedAndPlainOtherwiseBothVaryingOnAcceptEncoding() async throws {
        let f = try await RouterFixture()
        try await f.application().test(.router) { client in
            let plain = try await client.execute(uri: "/sign-in", method: .get) { $0 }
            #expect(plain.status == .ok)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            let html = String(buffer: plain.body)
            #expect(html.contains("<h1>Sign in</h1>"))

            let gzipped = try await client.execute(uri: "/sign-in", method: .get, headers: [.acceptEncoding: "gzip, deflate, br"]) { $0 }
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.headers[.vary] == "Accept-Encoding")
            #expect(gzipped.headers[.contentLength] == String(gzipped.body.readableBytes))
            #expect(gzipped.body.readableBytes * 3 < plain.body.readableBytes * 2)
            // The same page but for the CSRF token each answer draws afresh.
            let unpacked = try Self.gunzip(gzipped.body)
            #expect(unpacked.contains("<h1>Sign in</h1>") && unpacked.utf8.count == html.utf8.count)
            // The page's security headers survive compression.
            #expect(gzipped.headers[.contentSecurityPolicy] == WebMiddleware.contentSecurityPolicy)

            for refused in ["gzip;q=0", "identity", "br", "*;q=0"] {
                try await client.execute(uri: "/sign-in", method: .get, headers: [.acceptEncoding: refused]) { response in
                    #expect(response.headers[.contentEncoding] == nil, "\(refused)")
                }
            }
            try await client.execute(uri: "/sign-in", method: .get, headers: [.acceptEncoding: "*"]) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
            }
        }
        await f.close()
    }

    @Test func aStaticFileGzippedGetsItsOwnETagAndSmallAnswersAreLeftAlone() async throws {
        let f = try await RouterFixture()
        try await f.application().test(.router) { client in
            let plain = try await client.execute(uri: "/static/app.css", method: .get) { $0 }
            let gzipped = try await client.execute(uri: "/static/app.css", method: .get, headers: [.acceptEncoding: "gzip"]) { $0 }
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(try Self.gunzip(gzipped.body) == String(buffer: plain.body))
            let tag = try #require(plain.headers[.eTag])
            #expect(gzipped.headers[.eTag] == String(tag.dropLast()) + "-gzip\"")
            // Under 1 KiB (the health check): as it is, and nothing to vary on.
            try await client.execute(uri: "/healthz", method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                #expect(response.status == .ok && response.body.readableBytes < 1_024)
                #expect(response.headers[.contentEncoding] == nil && response.headers[.vary] == nil)
            }
        }
        await f.close()
    }

    /// The API's JSON is never gzipped (its hot read is answered from memory faster than gzip
    /// could compress it); the contract, YAML, is.
    @Test func theAPIsJSONIsSentPlainAndTheContractGzipped() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let token = try await client.token("ann1", "correct horse battery")
            let plain = try await client.execute(uri: "/v1/places", method: .get, headers: Wire.bearer(token)) { $0 }
            var headers = Wire.bearer(token)
            headers[.acceptEncoding] = "gzip"
            let gzipped = try await client.execute(uri: "/v1/places", method: .get, headers: headers) { $0 }
            #expect(plain.status == .ok && plain.body.readableBytes >= 1_024 && plain.headers[.contentEncoding] == nil)
            #expect(gzipped.headers[.contentEncoding] == nil && gzipped.body == plain.body)
            try await client.execute(uri: "/openapi.yaml", method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                #expect(response.status == .ok && response.headers[.contentEncoding] == "gzip")
            }
            // A problem+json for a missing login is small: sent as it is.
            try await client.execute(uri: "/v1/me", method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                #expect(response.status == .unauthorized && response.headers[.contentEncoding] == nil)
            }
        }
        await w.f.close()
    }

    /// Event streams have no length and must reach the browser event by event: never compressed,
    /// even when one names its length; nor is an answer already encoded.
    @Test func eventStreamsAndEncodedAnswersPassUntouched() async throws {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: ResponseCompression<AppRequestContext>())
        let event = ByteBuffer(string: "event: notification\ndata: " + String(repeating: "x", count: 4_000) + "\n\n")
        router.get("stream") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: ResponseBody { writer in
                    try await writer.write(event)
                    try await writer.finish(nil)
                })
        }
        router.get("sized-stream") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(byteBuffer: event))
        }
        router.get("encoded") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain", .contentEncoding: "br"], body: .init(byteBuffer: event))
        }
        router.get("text") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: event))
        }
        try await Application(router: router).test(.router) { client in
            for uri in ["/stream", "/sized-stream", "/encoded"] {
                try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                    #expect(response.headers[.contentEncoding] != "gzip", "\(uri)")
                    #expect(response.headers[.vary] == nil, "\(uri)")
                    #expect(response.body == event, "\(uri)")
                }
            }
            // The same bytes as plain text are compressed: the type decided, not the size.
            let text = try await client.execute(uri: "/text", method: .get, headers: [.acceptEncoding: "gzip"]) { $0 }
            #expect(text.headers[.contentEncoding] == "gzip")
            #expect(try Self.gunzip(text.body) == String(buffer: event))
        }
    }

    @Test func acceptEncodingIsReadWithItsWeights() {
        typealias C = ResponseCompression<AppRequestContext>
        #expect(C.acceptsGzip(["gzip"]) && C.acceptsGzip(["deflate, GZIP;q=0.5"]) && C.acceptsGzip(["br", "x-gzip"]))
        #expect(C.acceptsGzip(["*"]) && C.acceptsGzip(["br;q=1, *;q=0.1"]))
        #expect(!C.acceptsGzip([]) && !C.acceptsGzip(["identity"]) && !C.acceptsGzip(["gzip;q=0"]) && !C.acceptsGzip(["*;q=0.5, gzip;q=0"]))
        #expect(C.isText("text/html; charset=utf-8") && C.isText("application/yaml") && C.isText("application/javascript"))
        #expect(!C.isText("application/json") && !C.isText("application/problem+json; charset=utf-8"))
        #expect(!C.isText("text/event-stream") && !C.isText("image/png") && !C.isText("application/octet-stream"))
        // The fast paths answer as the full parse does, in any case and spacing.
        for type in [
            "application/json", "application/json; charset=utf-8", "application/problem+json", "application/json-seq", "text/html",
            "text/html;charset=UTF-8", "text/css", "Application/JSON", " text/HTML ; charset=utf-8", "TEXT/css",
        ] {
            #expect(
                C.isText(type)
                    == ["text/html", "text/css"].contains(type.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()), "\(type)")
        }
    }
}
