import Foundation
import Hummingbird
import VanDomain

extension Request {
    /// Largest JSON body an account route reads.
    static let maxAccountBody = 16 * 1024

    /// Decodes a small JSON body; a missing or mistyped field becomes a 422 naming it,
    /// anything that is not JSON a 400. Error messages never echo the body's values.
    func decodeJSON<Body: Decodable>(_ type: Body.Type) async throws -> Body {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: Self.maxAccountBody)
        } catch {
            throw Problem(status: .contentTooLarge, slug: "body-too-large", title: "Body too large",
                          detail: "Send at most \(Self.maxAccountBody) bytes.")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                throw Problem.invalidFields([ValidationError(field: Self.path(context.codingPath + [key]), reason: "is required")])
            case .valueNotFound(_, let context):
                throw Problem.invalidFields([ValidationError(field: Self.path(context.codingPath), reason: "is required")])
            case .typeMismatch(let expected, let context):
                if context.codingPath.isEmpty { throw Problem.malformedJSON() }
                throw Problem.invalidFields([ValidationError(field: Self.path(context.codingPath), reason: "must be \(Self.describe(expected))")])
            case .dataCorrupted(let context):
                if context.codingPath.isEmpty { throw Problem.malformedJSON() }
                throw Problem.invalidFields([ValidationError(field: Self.path(context.codingPath), reason: "is not valid")])
            @unknown default:
                throw Problem.malformedJSON()
            }
        } catch let error as ValidationError {
            throw Problem.invalidFields([error])
        } catch let error as ProfilePatchError {
            throw Problem.invalidFields(error.problems)
        }
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
