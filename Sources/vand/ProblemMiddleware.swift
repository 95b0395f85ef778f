import Hummingbird
import Logging
import VanServices
import VanPostgres

/// Turns every error into problem+json: database outages become 503 with
/// Retry-After, unknown routes 404, anything unexpected a 500 that reveals nothing.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            throw problem
        } catch let error as PGError where error.isConnectionProblem {
            context.logger.warning("database unavailable", metadata: ["error": "\(error)"])
            throw Problem.databaseUnavailable()
        } catch let error as HTTPError {
            if error.status == .notFound { throw Problem.notFound() }
            throw Problem(status: error.status, slug: "http-\(error.status.code)", title: error.status.reasonPhrase, detail: error.body ?? error.status.reasonPhrase)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            throw Problem(status: .internalServerError, slug: "internal", title: "Internal error", detail: "Something went wrong on our side; nothing was changed. Please try again or call the office.")
        }
    }
}
