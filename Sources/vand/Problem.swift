import Foundation
import Hummingbird

/// An RFC 9457 problem: every error response of the API is one of these, as
/// `application/problem+json`, so clients branch on a stable `type`.
struct Problem: HTTPResponseError, Sendable {
    /// One field that failed validation.
    struct FieldProblem: Codable, Sendable, Equatable {
        let field: String
        let reason: String
    }

    let status: HTTPResponse.Status
    /// A stable slug; the `type` URI is `https://vand.dev/problems/<slug>`.
    let slug: String
    let title: String
    let detail: String
    var fields: [FieldProblem] = []
    var headers: HTTPFields = [:]

    private struct Body: Encodable {
        let type: String
        let title: String
        let status: Int
        let detail: String
        let fields: [FieldProblem]?
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(
            type: "https://vand.dev/problems/\(slug)",
            title: title,
            status: status.code,
            detail: detail,
            fields: fields.isEmpty ? nil : fields
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }

    /// The database does not answer; the client should retry shortly.
    static func databaseUnavailable() -> Problem {
        Problem(
            status: .serviceUnavailable, slug: "database-unavailable", title: "Service temporarily unavailable",
            detail: "The ride database is not answering right now. Please try again in a few seconds; nothing was changed.",
            headers: [.retryAfter: "5"]
        )
    }

    /// No route matches.
    static func notFound(_ detail: String = "There is nothing at this address.") -> Problem {
        Problem(status: .notFound, slug: "not-found", title: "Not found", detail: detail)
    }
}
