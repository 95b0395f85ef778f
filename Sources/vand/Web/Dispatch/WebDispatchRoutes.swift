import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The dispatcher's console at `/dispatch`: the queue, the day board, the map, alerts,
/// booking for a rider who phones, and the appeals under the no-show policy. Server-rendered like the rider app, usable with JavaScript
/// off, CSRF on every form; every route admits dispatchers only (``WebSignedIn`` with the
/// dispatcher role), and every action is audited with the dispatcher's name
/// (``WebDispatchActions/actor(_:)``). See docs/dispatch.md.
struct WebDispatchRoutes: Sendable {
    let pages: WebPages
    let dispatch: WebDispatchActions

    func register(dispatchers group: RouterGroup<AppRequestContext>) {
        WebDispatchQueueRoutes(console: self).register(group)
        WebDispatchBoardRoutes(console: self).register(group)
        WebDispatchMapRoutes(console: self).register(group)
        WebDispatchPhoneRoutes(console: self).register(group)
        WebDispatchAppealsRoutes(console: self).register(group)
        WebDispatchSeriesRoutes(console: self).register(group)
    }

    /// A console page: the layout with the console's navigation, `dispatch.css` and the page's
    /// own styles and scripts.
    func page(_ template: String, title: String, nav: String, styles: [String] = [], scripts: [String] = []) -> WebPages.Page {
        var page = WebPages.Page(template: template, title: title)
        page.nav = nav
        page.styles = AccountRole.dispatcher.webStyles + styles
        page.scripts = scripts
        return page
    }
}
