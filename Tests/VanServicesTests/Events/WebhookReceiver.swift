import Foundation
import Hummingbird
import Logging
import Synchronization
import VanServices
import VanTestSupport
import VanPostgres

/// A real HTTP receiver for the dispatcher's webhook (a tiny Hummingbird app on
/// 127.0.0.1, port 0). It checks every signature with the shared secret, records
/// what arrived, and answers `status` (change it to make deliveries fail).
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable {
        let eventID: Int64
        let kind: String
        let body: [String: String]
        let signatureValid: Bool
    }

    static let secret = "test-secret-0123456789abcdef"
    private let recorder: Recorder
    private let task: Task<Void, any Error>
    /// The URL to configure as VAND_WEBHOOK_URL.
    let url: String

    private init(recorder: Recorder, task: Task<Void, any Error>, url: String) {
        self.recorder = recorder
        self.task = task
        self.url = url
    }

    /// Starts a receiver and waits until it listens.
    static func start() async throws -> WebhookReceiver {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let recorder = Recorder()
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(status: recorder.record(headers: request.headers, body: Array(body.readableBytesView)))
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portSink.yield($0.localAddress?.port ?? 0) },
            logger: {
                var logger = Logger(label: "receiver"); logger.logLevel = .critical; return logger
            }()
        )
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return WebhookReceiver(recorder: recorder, task: task, url: "http://127.0.0.1:\(port)/hook")
    }

    /// Settings that send the webhook here.
    func settings(maxAttempts: Int = 8) -> EventSettings {
        var settings = EventSettings()
        settings.webhookURL = url
        settings.webhookSecret = Self.secret
        settings.webhookMaxAttempts = maxAttempts
        settings.webhookTimeout = .seconds(60)
        return settings
    }

    /// What arrived so far.
    var deliveries: [Delivery] { recorder.state.withLock { $0.deliveries } }

    /// Answers `code` from now on.
    func answer(_ code: Int) { recorder.state.withLock { $0.status = code } }

    func stop() { task.cancel() }
}

/// What the receiver's route writes to.
private final class Recorder: Sendable {
    let state = Mutex<(deliveries: [WebhookReceiver.Delivery], status: Int)>(([], 204))

    func record(headers: HTTPFields, body: [UInt8]) -> HTTPResponse.Status {
        let timestamp = headers[.init("X-Vand-Timestamp")!].flatMap(Int.init) ?? -1
        let signature = headers[.init("X-Vand-Signature")!] ?? ""
        let valid = WebhookSignature.verify(signature: signature, body: body, timestamp: timestamp, secret: WebhookReceiver.secret)
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        let eventID = headers[.init("X-Vand-Event-Id")!].flatMap { Int64($0) } ?? -1
        var flat: [String: String] = [:]
        for (key, value) in object { flat[key] = "\(value)" }
        for nested in ["ride", "road", "late", "standing"] {
            if let members = object[nested] as? [String: Any] {
                for (key, value) in members { flat[nested + "." + key] = "\(value)" }
            }
        }
        let code = state.withLock { state -> Int in
            state.deliveries.append(
                WebhookReceiver.Delivery(eventID: eventID, kind: object["kind"] as? String ?? "?", body: flat, signatureValid: valid))
            return state.status
        }
        return HTTPResponse.Status(code: code)
    }

}
