import Hummingbird
import VanServices

/// `GET /healthz` (the process is up) and `GET /readyz` (the database answers within
/// `deadline`, else 503).
struct HealthRoutes: Sendable {
    let database: Database
    /// How long `/readyz` waits for the database (``AppConfiguration/readinessDeadline``).
    let deadline: Duration

    func register(on router: Router<AppRequestContext>) {
        router.get("healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        router.get("readyz") { _, _ -> Response in
            guard await database.isReady(within: deadline) else { throw Problem.databaseUnavailable() }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ready","database":"ok"}"#)))
        }
    }
}
