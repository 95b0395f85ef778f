import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The rider's standing under the no-show policy (a rider sees only her own):
/// - `GET /v1/me/standing` → her record: each missed trip, counted or excluded and why, her
///   share, her cases (notice, appeal, decision) and the policy
/// - `POST /v1/me/appeals` `{"text": "…"}` → 201 her standing, the case now on hold | 409
///   `nothing-to-appeal` or `appeal-closed` | 422 when the text is missing
struct StandingRoutes: Sendable {
    let auth: RiderAuth
    let standing: NoShowStanding
    let clock: ServiceTime
    let time: any TimeSource

    func register(on router: Router<AppRequestContext>) {
        let v1 = router.group("v1").add(middleware: auth.authenticator(role: .rider))
        v1.get("me/standing", use: show)
        v1.post("me/appeals", use: appeal)
    }

    /// The body of `POST /v1/me/appeals`: `text` alone (another member is refused, naming it).
    struct AppealBody: Decodable {
        let text: String

        private enum Keys: String, CodingKey { case text }

        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).filter { $0 != "text" }.sorted()
            if let first = unknown.first {
                throw InvalidFields([ValidationError(field: first, reason: "is not a member of an appeal; send only text")])
            }
            text = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .text)
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        return try await answer(session.netID.rawValue, status: .ok, request: request, context: context)
    }

    @Sendable func appeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let body = try await request.decodeJSON(AppealBody.self)
        try await standing.appeal(session.netID.rawValue, text: body.text, filedBy: session.netID.rawValue, now: time.now)
        return try await answer(session.netID.rawValue, status: .created, request: request, context: context)
    }

    private func answer(_ netID: String, status: HTTPResponse.Status, request: Request, context: AppRequestContext) async throws -> Response {
        let now = time.now
        let view = StandingView(try await standing.standing(netID, now: now), today: LocalDate(containing: now, in: clock.timeZone), clock: clock)
        var response = try context.responseEncoder.encode(view, from: request, context: context)
        response.status = status
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
