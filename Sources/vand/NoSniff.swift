import Hummingbird

/// `X-Content-Type-Options: nosniff` on every answer, errors included (the web app's pages set
/// it too): a browser never runs an API answer or a problem as something other than it says.
struct NoSniff<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
