import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The map (`/dispatch/map`): where each van is, drawn as SVG from the places' coordinates,
/// with a table of the same facts.
struct WebDispatchMapRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/map", use: map)
    }

    @Sendable func map(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = console.page("dispatch-map", title: "Map", nav: "map")
        return try await console.pages.render(page, request: request, context: context)
    }
}
