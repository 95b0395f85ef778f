import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The day board (`/dispatch/board`: each van's route over a day, a ride found by its
/// reference, moved with `vanadmin rides move`'s checks) and the map (`/dispatch/map`).
struct WebDispatchBoardRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/board", use: board)
        group.get("dispatch/map", use: map)
    }

    @Sendable func board(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = console.page("dispatch-board", title: "Day board", nav: "board")
        return try await console.pages.render(page, request: request, context: context)
    }

    @Sendable func map(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = console.page("dispatch-map", title: "Map", nav: "map")
        return try await console.pages.render(page, request: request, context: context)
    }
}
