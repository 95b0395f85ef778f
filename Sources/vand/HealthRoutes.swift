import Hummingbird
import VanServices

/// `GET /healthz` (the process is up) and `GET /readyz` (the database answers).
struct HealthRoutes: Sendable {
    let database: Database

    func register(on router: Router<AppRequestContext>) {
        router.get("healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        router.get("readyz") { _, _ -> Response in
            guard await database.isReady() else { throw Problem.databaseUnavailable() }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ready","database":"ok"}"#)))
        }
    }
}
