import Foundation
import Hummingbird
import Logging

/// `vand-bench fixed-json PORT FILE`: a bare Hummingbird server on 127.0.0.1:PORT whose
/// `GET /fixed` answers the bytes of FILE as application/json — the no-database baseline
/// that `scripts/bench-load` compares `GET /v1/rides?scope=upcoming` against (same body size).
enum FixedJSONServer {
    static func run(port: Int, file: String) async throws {
        let body = try Data(contentsOf: URL(fileURLWithPath: file))
        let buffer = ByteBuffer(bytes: body)
        let router = Router()
        router.get("fixed") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
        }
        var logger = Logger(label: "fixed-json")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await app.run()
    }
}
