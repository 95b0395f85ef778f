import Foundation
import Hummingbird
import VanDomain
import VanServices

/// `POST /v1/vans/{id}/positions` {lat, lon, accuracy_m?, at?} → 204 when kept, 202 when the van
/// has a fix in that second already (one per van per second is kept; nothing stored or sent).
/// The bearer is the van's tracker token (`vanadmin vans token VAN`) or the session of the
/// driver on the van's open shift; anyone else gets 401 or 403. `at` outside
/// [now − VAND_POSITION_STALE, now + 60 s] is a 422 naming it.
struct PositionRoutes: Sendable {
    let auth: RiderAuth
    let road: Road
    let clock: ServiceTime

    func register(on router: Router<AppRequestContext>) {
        router.post("v1/vans/:id/positions", use: post)
    }

    @Sendable func post(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = try BearerAuthenticator.token(request)
        let poster: PositionService.Poster
        if let trackerVan = try await road.trackers.van(forToken: token) {
            poster = .tracker(vanID: trackerVan)
        } else {
            let session = try await auth.accounts.authenticate(token: token).requiringOwnPassword().requiring(.driver)
            poster = .driver(session.netID)
        }
        guard let vanID = context.parameters.get("id").flatMap(Int64.init), vanID > 0 else {
            throw ValidationError(field: "id", reason: "must be a van's id (a positive whole number)")
        }
        let body = try await request.decodeJSON(PositionBody.self)
        let kept = try await road.positions.record(try body.fix(clock: clock), vanID: vanID, from: poster)
        var response = Response(status: kept == nil ? .accepted : .noContent)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
