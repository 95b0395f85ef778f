import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One webhook POST, ready to send.
public struct WebhookRequest: Sendable {
    /// The receiver's URL.
    public var url: String
    /// Headers, including the signature.
    public var headers: [(String, String)]
    /// The JSON body.
    public var body: [UInt8]
    /// How long the POST may take.
    public var timeout: Duration

    /// A request to POST `body` to `url` with `headers`, giving up after `timeout`.
    public init(url: String, headers: [(String, String)], body: [UInt8], timeout: Duration) {
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// Sends webhook POSTs; answers the HTTP status. Tests may pass their own.
public protocol WebhookTransport: Sendable {
    /// POSTs `request` and returns the response status code; throws when nothing came back.
    func send(_ request: WebhookRequest) async throws -> Int
}

/// The real transport: one process-wide AsyncHTTPClient that fails fast when the receiver
/// cannot be reached.
public struct HTTPWebhookTransport: WebhookTransport {
    let client: HTTPClient

    /// The client for webhooks: a refused or unreachable connection fails the POST at once
    /// (AsyncHTTPClient's default keeps reconnecting until the request's deadline, so a
    /// receiver that is down held a delivery slot for the whole 10 s timeout), and a connect
    /// may take 3 s. It lives as long as the process, like `HTTPClient.shared`, so it is
    /// never shut down.
    public static let failFast: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(3)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Uses `client` (default: ``failFast``).
    public init(client: HTTPClient = HTTPWebhookTransport.failFast) { self.client = client }

    /// POSTs with AsyncHTTPClient, within the request's timeout.
    public func send(_ request: WebhookRequest) async throws -> Int {
        var http = HTTPClientRequest(url: request.url)
        http.method = .POST
        for (name, value) in request.headers { http.headers.add(name: name, value: value) }
        http.body = .bytes(ByteBuffer(bytes: request.body))
        let seconds = Int64(request.timeout.components.seconds)
        let response = try await client.execute(http, timeout: .seconds(max(1, seconds)))
        // Drain (and drop) the answer so the connection can be reused.
        _ = try? await response.body.collect(upTo: 64 * 1024)
        return Int(response.status.code)
    }
}
