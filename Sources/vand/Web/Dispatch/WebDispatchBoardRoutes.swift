import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The day board (`/dispatch/board`: each van's route over a day, a ride found by its
/// reference, moved with `vanadmin rides move`'s checks).
struct WebDispatchBoardRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/board", use: board)
    }

    @Sendable func board(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = console.page("dispatch-board", title: "Day board", nav: "board")
        return try await console.pages.render(page, request: request, context: context)
    }
}
