import Foundation
import Hummingbird
import Logging
import VanPostgres
import VanServices

/// The one place errors become responses: every error a route throws is looked up in
/// ``Problem/init(_:hotline:now:timeZone:)`` and answered as problem+json. Database outages are
/// logged as warnings, anything unexpected as an error (the rider sees a 500 that reveals nothing).
/// A path the router knows, asked with a method it does not answer, is a 405 with `Allow`.
struct ErrorResponder<Context: RequestContext>: RouterMiddleware {
    /// The office's number, shown when a rider must call.
    let hotline: String?
    /// For "try again in N minutes".
    let clock: any TimeSource
    /// The service zone, for the times a refusal names.
    let timeZone: TimeZone
    /// The registered methods per path, for 405 instead of the router's 404.
    var routeMethods = RouteMethods()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem: Problem
            if let error = error as? HTTPError, error.status == .notFound,
                case let allowed = routeMethods.allowed(for: request.uri.path), !allowed.isEmpty, !allowed.contains(request.method)
            {
                problem = .methodNotAllowed(request.method, allowed: allowed)
            } else if let known = Problem(error, hotline: hotline, now: clock.now, timeZone: timeZone) {
                problem = known
                if let error = error as? PGError { context.logger.warning("database unavailable", metadata: ["error": "\(error)"]) }
            } else {
                context.logger.error("request failed", metadata: ["error": "\(error)"])
                problem = .internalError()
            }
            return try problem.response(from: request, context: context)
        }
    }
}
