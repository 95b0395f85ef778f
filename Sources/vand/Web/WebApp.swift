import Foundation
import Hummingbird
import Logging
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// The rider web app at `/`, the driver's pages at `/driver` and the dispatcher's console at `/dispatch`: server-rendered HTML over the same services as `/v1`, usable
/// with JavaScript off; small self-hosted scripts add location, live notifications and
/// place search. See docs/webapp.md.
struct WebApp: Sendable {
    let pages: WebPages?
    let notifications: NotificationRoutes
    /// Why the web app's files could not be read (the app then answers 503 with this).
    let loadError: String?

    /// The driver's pages' calls into the road services.
    let driver: WebDriverActions
    /// The dispatcher's console's calls into the dispatch, booking and road services.
    let dispatch: WebDispatchActions

    init(
        actions: WebRiderActions, driver: WebDriverActions, dispatch: WebDispatchActions, settings: WebSettings, accounts: AccountSettings,
        hotline: String?, notifications: NotificationRoutes
    ) {
        self.notifications = notifications
        self.driver = driver
        self.dispatch = dispatch
        do {
            guard let directory = settings.resolvedDirectory() else {
                throw WebAppFilesMissing(description: "cannot find the web app's files (web/templates); set VAND_WEB_DIR")
            }
            let assets = try WebAssets(directory: directory)
            pages = WebPages(
                assets: assets, actions: actions,
                cookies: WebSession(secureCookies: settings.secureCookies, lifetime: accounts.sessionIdleTimeout), hotline: hotline)
            loadError = nil
        } catch {
            pages = nil
            loadError = "\(error)"
        }
    }

    func register(on router: Router<AppRequestContext>) {
        guard let pages else {
            let message = loadError ?? "the web app is not installed"
            router.get("/") { _, _ -> Response in
                Response(
                    status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "The rider web app is not available: \(message)\n")))
            }
            return
        }
        let web = router.group().add(middleware: WebMiddleware(pages: pages))
        let open = web.group().add(middleware: WebOptionalSession(actions: pages.actions))
        let anySession = web.group().add(middleware: WebSignedIn(actions: pages.actions, allowTemporaryPassword: true))
        let signedIn = web.group().add(middleware: WebSignedIn(actions: pages.actions, role: .rider))
        let rides = WebRideRoutes(pages: pages)
        WebAccountRoutes(pages: pages).register(public: open, anySession: anySession, signedIn: signedIn)
        WebBookingRoutes(pages: pages).register(signedIn: signedIn)
        rides.register(signedIn: signedIn)
        WebStandingRoutes(pages: pages).register(signedIn: signedIn)
        WebSeriesRoutes(pages: pages).register(signedIn: signedIn)
        WebInfoRoutes(pages: pages, rides: rides, notificationStream: notifications).register(bare: web, public: open, signedIn: signedIn)
        WebDriverRoutes(pages: pages, driver: driver).register(
            drivers: web.group().add(middleware: WebSignedIn(actions: pages.actions, role: .driver)))
        WebDispatchRoutes(pages: pages, dispatch: dispatch)
            .register(dispatchers: web.group().add(middleware: WebSignedIn(actions: pages.actions, role: .dispatcher)))
        // Added after every route, so it wraps only the router's own "no such route" answer.
        router.add(middleware: WebNotFound(pages: pages))
    }
}

/// A browser asking for an address no route has (outside `/v1`) gets the app's not-found
/// page, with the navigation of whoever asked, instead of the API's problem+json.
struct WebNotFound: RouterMiddleware {
    typealias Context = AppRequestContext
    let pages: WebPages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && Self.isPage(request) {
            var response = await pages.errorPage(.notFound(), request: request, context: context)
            WebMiddleware.addSecurityHeaders(to: &response)
            return response
        }
    }

    /// A GET for a page: a browser's navigation (it accepts HTML), not an API call.
    static func isPage(_ request: Request) -> Bool {
        request.method == .get && !request.uri.path.hasPrefix("/v1/") && request.uri.path != "/v1"
            && request.headers[values: .accept].contains { $0.contains("text/html") }
    }
}

struct WebAppFilesMissing: Error, CustomStringConvertible {
    let description: String
}

/// Puts the cookie session in the context when there is a valid one; pages open to everyone
/// (sign-in, service hours) then show the signed-in navigation.
struct WebOptionalSession: RouterMiddleware {
    typealias Context = AppRequestContext
    let actions: WebRiderActions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = WebSession.token(request) { context.session = try await actions.session(token: token) }
        return try await next(request, context)
    }
}
