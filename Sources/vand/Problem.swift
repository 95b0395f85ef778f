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
    /// A stable slug; the `type` is the relative URI `/problems/<slug>`, resolved against the
    /// API's own address (RFC 9457 §3.1.1), each listed and described in openapi.yaml.
    let slug: String
    let title: String
    let detail: String
    var fields: [FieldProblem] = []
    var headers: HTTPFields = [:]
    /// Extra members of the problem object (RFC 9457 §3.2), e.g. `hotline`.
    var extensions: [String: String] = [:]
    /// Structured extra members, e.g. the suggested times of a 409.
    var members: [String: JSONValue] = [:]

    /// Every problem `type` is this followed by the slug.
    static let typePrefix = "/problems/"

    /// The problem+json object, for ``APIJSON``.
    struct Body: Encodable {
        let type: String
        let title: String
        let status: Int
        let detail: String
        let fields: [FieldProblem]?
        let extensions: [String: String]
        let members: [String: JSONValue]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in extensions { try container.encode(value, forKey: Key(stringValue: name)) }
            for (name, value) in members { try container.encode(value, forKey: Key(stringValue: name)) }
            try container.encode(type, forKey: Key(stringValue: "type"))
            try container.encode(title, forKey: Key(stringValue: "title"))
            try container.encode(status, forKey: Key(stringValue: "status"))
            try container.encode(detail, forKey: Key(stringValue: "detail"))
            try container.encodeIfPresent(fields, forKey: Key(stringValue: "fields"))
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoded())))
    }

    /// The problem+json object.
    var body: Body {
        Body(
            type: Problem.typePrefix + slug,
            title: title,
            status: status.code,
            detail: detail,
            fields: fields.isEmpty ? nil : fields,
            extensions: extensions,
            members: members
        )
    }

    /// The problem+json body.
    func encoded() throws -> Data {
        try APIJSON.data(body)
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
