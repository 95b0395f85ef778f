import Foundation
import Hummingbird
import VanDomain
import VanServices

/// Booking for a rider who phones (`/dispatch/book`): find her by net ID or name, then book
/// through the one booking path with the suggestions she would get herself.
struct WebDispatchPhoneRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/book", use: find)
    }

    @Sendable func find(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = console.page("dispatch-book", title: "Book for a rider", nav: "phone")
        return try await console.pages.render(page, request: request, context: context)
    }
}
