import Foundation
import Hummingbird
import VanDomain

extension Request {
    /// Largest JSON body an account route reads.
    static let maxAccountBody = 16 * 1024
    /// Largest JSON body any route reads (64 KiB); more is a 413.
    static let maxBody = 64 * 1024

    /// The raw body, refused with 413 past `limit` bytes: at once when `Content-Length` says so
    /// (the body is never read and the connection closes after the answer), else once that many
    /// bytes have arrived.
    func collectBody(upTo limit: Int = Request.maxBody) async throws -> Data {
        let tooLarge = Problem(
            status: .contentTooLarge, slug: "body-too-large", title: "Body too large",
            detail: "Send at most \(limit) bytes.", headers: [.connection: "close"])
        if let length = announcedLength, length > limit { throw tooLarge }
        do {
            return Data(try await body.collect(upTo: limit).readableBytesView)
        } catch {
            throw tooLarge
        }
    }

    /// Decodes a small JSON body (a missing or mistyped field becomes a 422 naming it,
    /// anything that is not JSON a 400, through ``ErrorResponder``).
    func decodeJSON<Body: Decodable>(_ type: Body.Type, limit: Int = Request.maxAccountBody) async throws -> Body {
        try Self.decodeJSON(type, from: try await collectBody(upTo: limit))
    }

    /// Decodes `data` as ``decodeJSON(_:limit:)`` does; its errors are answered by ``ErrorResponder``.
    /// A string the body reads that holds NUL (`\u0000`) is refused with a 422 naming its field:
    /// PostgreSQL's text cannot hold it, and libpq would cut the value there. Members the body
    /// does not read are ignored, NUL or not, as every unknown member is.
    static func decodeJSON<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        let body = try JSONDecoder().decode(Body.self, from: data)
        if let field = JSONNul.field(in: data, read: body) { throw InvalidFields([.nul(field: field)]) }
        return body
    }
}

/// Where a JSON body holds a NUL character in a string the decoded body kept.
enum JSONNul {
    /// The dotted path (`pickup.address`, `days.2`) of the first string in `data` that holds NUL
    /// and is one of the strings `body` holds, or nil when `body` holds none. Only bodies with a
    /// `\u0000` escape are looked at twice; a raw NUL byte is not JSON and is refused as such.
    static func field(in data: Data, read body: Any) -> String? {
        guard data.range(of: Data(#"\u0000"#.utf8)) != nil else { return nil }
        var kept: Set<String> = []
        collect(body, into: &kept)
        guard !kept.isEmpty, let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        return find(in: value, path: [], kept: kept) ?? "body"
    }

    /// Every string holding NUL anywhere in `value`'s stored properties.
    private static func collect(_ value: Any, into kept: inout Set<String>) {
        if let text = value as? String {
            if text.utf8.contains(0) { kept.insert(text) }
            return
        }
        for child in Mirror(reflecting: value).children { collect(child.value, into: &kept) }
    }

    private static func find(in value: Any, path: [String], kept: Set<String>) -> String? {
        switch value {
        case let text as String:
            return kept.contains(text) ? (path.isEmpty ? "body" : path.joined(separator: ".")) : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if let found = find(in: object[key]!, path: path + [key], kept: kept) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = find(in: element, path: path + [String(index)], kept: kept) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}

extension Problem {
    /// A body that did not decode: 400 when it is not JSON, else 422 naming the field.
    /// Error messages never echo the body's values.
    static func decoding(_ error: DecodingError) -> Problem {
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidFields([ValidationError(field: path(context.codingPath + [key]), reason: "is required")])
        case .valueNotFound(_, let context):
            return .invalidFields([ValidationError(field: path(context.codingPath), reason: "is required")])
        case .typeMismatch(let expected, let context):
            if context.codingPath.isEmpty { return .malformedJSON(position(context)) }
            return .invalidFields([ValidationError(field: path(context.codingPath), reason: "must be \(describe(expected))")])
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .malformedJSON(position(context)) }
            return .invalidFields([ValidationError(field: path(context.codingPath), reason: "is not valid")])
        @unknown default:
            return .malformedJSON()
        }
    }

    /// Where the parser stopped, from Foundation's underlying error ("around line 1, column 12").
    private static func position(_ context: DecodingError.Context) -> String? {
        guard let underlying = context.underlyingError as NSError? else { return nil }
        if let index = underlying.userInfo["NSJSONSerializationErrorIndex"] as? Int { return "at byte \(index)" }
        let text = "\(underlying.userInfo[NSDebugDescriptionErrorKey] ?? underlying.localizedDescription)"
        if let range = text.range(of: "line ") { return String(text[range.lowerBound...]).trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        if let range = text.range(of: "character ") {
            return "at " + String(text[range.lowerBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        return text.isEmpty ? nil : text
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map(\.stringValue).joined(separator: ".")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is String?.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        default: "of another type"
        }
    }
}

extension KeyedDecodingContainer {
    /// An optional member of a request body: absent is nil; `null` is refused like any other
    /// wrong type (422 naming the field), since the contract has no nullable request member.
    func member<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) { throw ValidationError(field: key.stringValue, reason: "must not be null; leave it out instead") }
        return try decode(T.self, forKey: key)
    }
}
