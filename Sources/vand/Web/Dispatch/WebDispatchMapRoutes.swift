import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The map (`/dispatch/map`): where each van is, drawn as SVG on the server from the places'
/// coordinates, with a table of the same facts; `/dispatch/map/part` is the same without the
/// layout, for `dispatch-map.js` to redraw in place on the console's stream.
struct WebDispatchMapRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/map", use: map)
        group.get("dispatch/map/part", use: part)
    }

    @Sendable func map(_ request: Request, context: AppRequestContext) async throws -> Response {
        var page = console.page(
            "dispatch-map", title: "Map", nav: "map", styles: ["dispatch-map.css"], scripts: ["dispatch-live.js", "dispatch-map.js"])
        page.values = try await values()
        return try await console.pages.render(page, request: request, context: context)
    }

    /// The map and its table alone (no layout).
    @Sendable func part(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try WebPages.session(context)
        let html = console.pages.assets.render("dispatch-map-part", try await values())
        return console.pages.html(html, status: .ok, cookies: [])
    }

    private func values() async throws -> [String: Any] {
        let map = try await console.dispatch.fleetMap()
        return WebDispatchMapView(words: console.pages.words, map: map).values()
    }
}
