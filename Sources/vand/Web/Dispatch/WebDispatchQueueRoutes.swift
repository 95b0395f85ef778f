import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The queue (`/dispatch`: pending rides, approve or reject in one step, approve all that fit)
/// and the alerts (`/dispatch/alerts`).
struct WebDispatchQueueRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch", use: queue)
        group.get("dispatch/alerts", use: alerts)
    }

    @Sendable func queue(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = console.page("dispatch-queue", title: "Queue", nav: "queue")
        return try await console.pages.render(page, request: request, context: context)
    }

    @Sendable func alerts(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = console.page("dispatch-alerts", title: "Alerts", nav: "alerts")
        return try await console.pages.render(page, request: request, context: context)
    }
}
