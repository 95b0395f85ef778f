import Foundation
import Hummingbird
import VanServices
import VanPostgres

/// `GET /openapi.yaml`: the API description kept in the repository (`openapi.yaml`,
/// installed beside `sql/`). Read once at start-up.
struct OpenAPIRoute: Sendable {
    /// The document, or nil when the file cannot be found.
    let document: String?

    init(path: String? = OpenAPIRoute.defaultPath()) {
        document = path.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
    }

    /// `$VAND_OPENAPI_PATH`, else `openapi.yaml` beside the migrations folder.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit = SettingSpec.openAPIPath.text(environment) { return explicit }
        guard let sql = VandPaths.migrations(environment: environment) else { return nil }
        let path = URL(fileURLWithPath: sql).deletingLastPathComponent().appendingPathComponent("openapi.yaml").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    func register(on router: Router<AppRequestContext>) {
        let document = self.document
        router.get("openapi.yaml") { _, _ -> Response in
            guard let document else { throw Problem.notFound("The OpenAPI document is not installed with this build.") }
            return Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(string: document)))
        }
    }
}
