import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// The home page, notifications (with their live stream), service information and static files.
struct WebInfoRoutes: Sendable {
    let pages: WebPages
    let rides: WebRideRoutes
    /// The JSON API's stream, reused as is: the web route only authenticates by cookie instead of bearer token.
    let notificationStream: NotificationRoutes
    var actions: WebRiderActions { pages.actions }

    func register(bare: RouterGroup<AppRequestContext>, public group: RouterGroup<AppRequestContext>, signedIn: RouterGroup<AppRequestContext>) {
        bare.get("static/:name", use: staticFile)
        group.get("service", use: service)
        signedIn.get("/", use: home)
        signedIn.get("notifications", use: notifications)
        signedIn.get("notifications/stream", use: notificationStream.stream)
    }

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let profile = try await actions.profile(session.netID)
        let next = try await actions.upcoming(session.netID, limit: 1).first
        var page = WebPages.Page(template: "home", title: "Home", nav: "home")
        page.values = ["eligible": profile.eligibility.isEligible]
        page.values["name"] = profile.rider.name
        page.values["next"] = next.map { rides.values($0, now: actions.now) }
        if request.uri.queryParameters["done"] == "password" { page.values["flash"] = "Your new password is saved." }
        return try await pages.render(page, request: request, context: context)
    }

    @Sendable func notifications(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let all = try await actions.notifications(session.netID)
        let seen = WebSession.seen(request)
        let now = actions.now
        var page = WebPages.Page(template: "notifications", title: "Notifications", nav: "notifications")
        page.values = [
            "items": all.suffix(50).reversed().map { item -> [String: Any] in
                var values: [String: Any] = ["message": item.message, "when": pages.words.words(item.createdAt, now: now), "unread": item.id > seen]
                values["rideID"] = item.rideID?.uuidString.lowercased()
                return values
            },
            "hasItems": !all.isEmpty,
        ]
        if let latest = all.last?.id, latest > seen { page.cookies = [pages.cookies.seenCookie(latest)] }
        // This page shows them all: nothing is unread any more.
        page.seen = all.last?.id
        return try await pages.render(page, request: request, context: context)
    }

    @Sendable func service(_ request: Request, context: AppRequestContext) async throws -> Response {
        let week = try await actions.serviceWeek()
        let words = pages.words
        let now = actions.now
        var page = WebPages.Page(template: "service", title: "Service hours and contact", nav: "service")
        page.values = [
            "openNow": week.openNow,
            "days": week.days.map { day -> [String: Any] in
                var values: [String: Any] = ["date": words.date(day.start), "today": day.start <= now && now < day.start.addingTimeInterval(86_400)]
                if let reason = day.closedReason {
                    values["hours"] = "Closed: \(reason)"
                } else if day.open.isEmpty {
                    values["hours"] = "No service"
                } else {
                    values["hours"] = day.open.map { interval in
                        interval.duration >= 86_400 - 3_600 ? "All day" : "\(words.time(interval.start)) to \(words.time(interval.end))"
                    }.joined(separator: ", ")
                }
                return values
            },
            "formsURL": actions.settings.formsURL ?? "",
            "hasForms": actions.settings.formsURL != nil,
        ]
        page.values["nextOpening"] = week.nextOpening.map { words.words($0, now: now) }
        return try await pages.render(page, request: request, context: context)
    }

    @Sendable func staticFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let name = context.parameters.get("name"), let file = pages.assets.files[name] else {
            throw WebErrorPage.notFound()
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: file.contentType, .cacheControl: "public, max-age=31536000, immutable", .eTag: "\"\(file.version)\"",
            ], body: .init(byteBuffer: file.body))
    }
}
